cd /tmp/bo
M=$1
echo "start $M $(date -u +%FT%TZ)" >> lanes.log
for o in cyclic random gap; do
  ./lazycg solve -polytope "product:[birkhoff:10]*8" -objective quadratic -method $M -params order=$o -time 30s -json > $M-$o.json 2> $M-$o.err
done
echo "DONE $M $(date -u +%FT%TZ)" >> lanes.log
