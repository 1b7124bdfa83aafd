-- TPC-H Q1, pricing summary report. Validation parameters: DELTA = 90.
-- Calcite's AVG returns the type of its argument, so AVG over DECIMAL(15, 2) drops the
-- mean's digits beyond the cents (25.575... becomes 25.57). The means are taken over DOUBLE
-- here and compared with the unsharded database's exact means within a relative tolerance.
select
  l_returnflag,
  l_linestatus,
  sum(l_quantity) as sum_qty,
  sum(l_extendedprice) as sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
  sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
  avg(cast(l_quantity as double)) as avg_qty,
  avg(cast(l_extendedprice as double)) as avg_price,
  avg(cast(l_discount as double)) as avg_disc,
  count(*) as count_order
from
  lineitem
where
  l_shipdate <= date '1998-12-01' - interval '90' day
group by
  l_returnflag,
  l_linestatus
order by
  l_returnflag,
  l_linestatus
