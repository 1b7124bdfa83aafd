"""psycopg2 and SQLAlchemy against ShardSet's PostgreSQL port.

Runs what applications and Superset do on connect and prints one JSON line per step
(arguments: port, user, database):
parameterized queries, a committed and a rolled-back write, a named (server-side) cursor read
in batches, an error's SQLState, and SQLAlchemy's reflection of the schema.
"""
import json
import sys

import psycopg2
import sqlalchemy
from sqlalchemy import inspect


def emit(step, value):
    print(json.dumps({"step": step, "value": value}, default=str), flush=True)


def main(port, user, dbname):
    conn = psycopg2.connect(host="127.0.0.1", port=port, user=user, dbname=dbname)
    try:
        cur = conn.cursor()
        cur.execute("SELECT id, name FROM items WHERE grp = %s ORDER BY id", (3,))
        emit("rows", cur.fetchall())
        cur.execute("INSERT INTO items (id, grp, name, price) VALUES (%s, %s, %s, %s)",
                    (600, 1, "from python", "12.50"))
        conn.commit()
        cur.execute("DELETE FROM items WHERE id = %s", (600,))
        conn.rollback()
        named = conn.cursor(name="all_items")
        named.itersize = 7
        named.execute("SELECT id FROM items ORDER BY id")
        emit("named", [row[0] for row in named])
        named.close()
        conn.commit()
        try:
            cur.execute("SELECT * FROM nope")
        except psycopg2.Error as e:
            emit("error", e.pgcode)
            conn.rollback()
    finally:
        conn.close()
    engine = sqlalchemy.create_engine(
        "postgresql+psycopg2://%s@127.0.0.1:%s/%s" % (user, port, dbname))
    inspector = inspect(engine)
    emit("tables", inspector.get_table_names())
    emit("columns", [[c["name"], str(c["type"]), c["nullable"]]
                     for c in inspector.get_columns("items")])
    emit("pk", inspector.get_pk_constraint("items"))
    engine.dispose()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
