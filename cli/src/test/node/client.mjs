// Runs statements through node-postgres against the port given and prints what each gave, one
// JSON line per statement: the rows (values as text), or the error's SQLState.
import pg from 'pg';

// Every value as the server sent its text, so that the Java side compares strings.
for (const oid of [20, 21, 23, 700, 701, 1082, 1114, 1184, 1700, 16]) {
  pg.types.setTypeParser(oid, (text) => text);
}

const client = new pg.Client({host: '127.0.0.1', port: Number(process.argv[2]),
  user: 'tester', database: 'shardset'});
await client.connect();
const statements = JSON.parse(process.argv[3]);
for (const statement of statements) {
  try {
    const result = await client.query({text: statement.sql, values: statement.values,
      rowMode: 'array'});
    console.log(JSON.stringify({rows: result.rows, count: result.rowCount}));
  } catch (e) {
    console.log(JSON.stringify({error: e.code}));
  }
}
await client.end();
