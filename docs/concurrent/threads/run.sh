export LAZYCG_DATA=/work/shared/data
# variants: s1 = sequential threads=1 (logs its calls), s2 = sequential threads=2, c2 = concurrent (idle wait) threads=2
i=0
for spec in "mps:miplib/eil33-2.mps.gz lpcg eil33-2" "mps:miplib/nw04.mps.gz lpcg nw04" "mps:miplib/air04.mps.gz lpcg air04" "mps:miplib/eilB101.mps.gz lpcg eilB101" "cut:23 lcg cut23"; do
  set -- $spec; P=$1; M=$2; N=$3
  case $((i % 3)) in 0) order="s1 s2 c2";; 1) order="s2 c2 s1";; 2) order="c2 s1 s2";; esac
  for v in $order; do
    case $v in
      s1) opt=",threads=1,calls=$N.calls.jsonl"; flags="";;
      s2) opt=",threads=2"; flags="";;
      c2) opt=",threads=2"; flags="-concurrent -idle wait";;
    esac
    echo "START $N $v $(date +%T)" >> log
    ./lazycg solve -polytope "$P$opt" -objective quadratic -method $M $flags -time 120s -progress 0 -trace $N-$v.csv > $N-$v.out 2>&1
    echo "END $N $v rc=$? $(date +%T)" >> log
  done
  i=$((i+1))
done
echo "LANE DONE $(date)" >> log
