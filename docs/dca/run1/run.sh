export LAZYCG_DATA=/work/shared/data
for inst in cut:12 cut:16 mps:miplib/eil33-2.mps.gz; do
  tag=$(echo $inst | tr ':/.' '___')
  for m in bpcg lazy-bpcg; do
    ./lazycg solve -json -polytope $inst -objective quadratic -concave distance:weight=1,center=0.5 -method $m -time 120s -trace $tag-$m.csv > $tag-$m.json 2> $tag-$m.err
    echo "DONE $tag $m $(date +%T)" >> lanes.log
  done
done
