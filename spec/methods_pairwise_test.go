package spec

import (
	"strings"
	"testing"

	"github.com/lazycg/lazycg"
)

func TestPwRegisteredMethods(t *testing.T) {
	cases := []struct {
		name   string
		params MethodParams
		want   string // type name, or "" for an error
		errSub string
	}{
		{"pcg", MethodParams{}, "*lazycg.PCG", ""},
		{"pcg", MethodParams{C: 4, Params: "dyadic=1,s=2,alpha=3"}, "*lazycg.PCG", ""},
		{"pcg", MethodParams{Params: "dyadic=1,s=2,alpha=3"}, "", "curvature"},
		{"pcg", MethodParams{NoLineSearch: true}, "", "dyadic"},
		{"lpcg", MethodParams{K: 1.1, Phi0Search: true, Params: "face-cache=100,standard-form=1"}, "*lazycg.LPCG", ""},
		{"pcg", MethodParams{Params: "standard-form=1"}, "*lazycg.PCG", ""},
		{"lpcg", MethodParams{Params: "bogus=1"}, "", "unknown setting"},
		{"lpcg", MethodParams{Params: "dyadic=2"}, "", "dyadic"},
		{"lpcg", MethodParams{LineSearch: "adaptive"}, "*lazycg.LPCG", ""},
		{"pcg", MethodParams{LineSearch: "bogus"}, "", "unknown line search"},
		{"pcg", MethodParams{C: 4, LineSearch: "secant", Params: "dyadic=1,s=2,alpha=3"}, "", "no line search"},
		{"llcg", MethodParams{Params: "s=2,mu=1,ls=1,alpha-scale=10,adaptive=1"}, "*lazycg.LLCG", ""},
		{"llcg", MethodParams{}, "", "strong convexity"},
		{"llcg", MethodParams{Params: "s=2,mu=0.5"}, "", "mu"},
		{"local-cg", MethodParams{Params: "s=1,beta=4,d=2"}, "*lazycg.LocalCG", ""},
		{"afw", MethodParams{}, "*lazycg.AwayFW", ""},
		{"afw", MethodParams{NoLineSearch: true}, "", "line search"},
		{"lazy-afw", MethodParams{K: 1.1, ImprovedPhi: true}, "*lazycg.LazyAwayFW", ""},
		{"bpcg", MethodParams{Params: "x=1"}, "", "unknown setting"},
		{"lazy-bpcg", MethodParams{K: 2}, "*lazycg.LazyBPCG", ""},
	}
	for _, tc := range cases {
		info, err := Method(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := info.New(tc.params)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), tc.errSub) || m != nil {
				t.Errorf("%s %+v: got (%T, %v), want an error about %q", tc.name, tc.params, m, err, tc.errSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %+v: %v", tc.name, tc.params, err)
			continue
		}
		if got := pwTypeName(m); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if l, ok := m.(*lazycg.LPCG); ok && tc.params.LineSearch == "adaptive" && l.LineSearch.Rule != lazycg.LineSearchAdaptive {
			t.Errorf("%s %+v: line search %v", tc.name, tc.params, l.LineSearch.Rule)
		}
	}
	for _, pair := range [][2]string{{"lpcg", "pcg"}, {"llcg", "local-cg"}, {"lazy-afw", "afw"}, {"lazy-bpcg", "bpcg"}} {
		info, _ := Method(pair[0])
		if !info.Lazy || info.Baseline != pair[1] {
			t.Errorf("%s: lazy=%v baseline %q, want %q", pair[0], info.Lazy, info.Baseline, pair[1])
		}
		if base, _ := Method(pair[1]); base.Lazy {
			t.Errorf("%s is registered as lazy", pair[1])
		}
	}
}

func pwTypeName(m lazycg.Method) string {
	switch m.(type) {
	case *lazycg.PCG:
		return "*lazycg.PCG"
	case *lazycg.LPCG:
		return "*lazycg.LPCG"
	case *lazycg.LLCG:
		return "*lazycg.LLCG"
	case *lazycg.LocalCG:
		return "*lazycg.LocalCG"
	case *lazycg.AwayFW:
		return "*lazycg.AwayFW"
	case *lazycg.LazyAwayFW:
		return "*lazycg.LazyAwayFW"
	case *lazycg.BlendedPairwise:
		return "*lazycg.BlendedPairwise"
	case *lazycg.LazyBPCG:
		return "*lazycg.LazyBPCG"
	}
	return "unknown"
}
