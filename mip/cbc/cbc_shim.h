/* C interface of the CBC shim used by package cbc (cbc.go).
 *
 * CBC's own C API cannot end a solve from a callback, so this shim solves
 * the LP relaxation itself (with a Clp event handler that honours the time
 * limit and the cancel flag), then runs CBC's standard solve path
 * (CbcMain0/CbcMain1, as the cbc program does: its cut generators, its
 * heuristics -- feasibility pump, rounding, greedy cover and equality,
 * coefficient diving, RINS, combine -- and its branching) with a
 * CbcEventHandler that stops
 * the search as soon as the call's question is answered. No C++ exception
 * ever leaves these functions: failures are reported by return codes and a
 * message in the solver. */
#ifndef LAZYCG_MIP_CBC_SHIM_H
#define LAZYCG_MIP_CBC_SHIM_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lcg_cbc lcg_cbc;

/* Outcomes of a solve (lcg_cbc_result.outcome), in the order of
 * mip.Outcome. */
enum {
	LCG_OPTIMAL = 0,    /* search complete */
	LCG_GAP = 1,        /* relative gap reached */
	LCG_IMPROVING = 2,  /* incumbent below params.improve */
	LCG_CERTIFIED = 3,  /* best bound at least params.certify */
	LCG_TIMELIMIT = 4,  /* time limit */
	LCG_CANCELED = 5,   /* lcg_cbc_cancel was called */
	LCG_INFEASIBLE = 6, /* no solution exists (under the cutoff, if any) */
	LCG_UNBOUNDED = 7   /* LP relaxation unbounded */
};

/* Return codes of lcg_cbc_solve. */
enum {
	LCG_OK = 0,
	LCG_ERROR = 1 /* solver failure, see lcg_cbc_error */
};

typedef struct {
	const double *obj;     /* objective, one entry per column (minimized) */
	double improve;        /* stop when incumbent < improve (-HUGE_VAL: off, HUGE_VAL: any incumbent) */
	double certify;        /* stop when best bound >= certify (HUGE_VAL: off) */
	double cutoff;         /* only solutions with objective < cutoff (HUGE_VAL: none) */
	double time_limit;     /* seconds of wall-clock time, <= 0: none */
	double rel_gap;        /* relative gap at which to stop, 0: exact */
	const double *start;   /* feasible solution to start from, or NULL */
	int threads;           /* CBC threads, <= 1: one */
	int preprocess;        /* CBC's integer preprocessing (CglPreProcess; standard search only) */
	int light;             /* the light search instead of CBC's standard solve path */
	int first_lp;          /* first LP: 0 auto (from timings), 1 warm, 2 cold, 3 warm cut at once (tests) */
	int pool;              /* separate the cut pool (lcg_cbc_set_cuts) in this solve */
	int dive;              /* search for an incumbent below improve first, also when certify is set */
} lcg_cbc_params;

typedef struct {
	double *x;             /* out: solution, one entry per column */
	int found;             /* out: x holds a solution */
	double value;          /* out: objective of x */
	double bound;          /* out: proven lower bound (-HUGE_VAL: none) */
	long long nodes;       /* out: branch-and-bound nodes */
	int outcome;           /* out: LCG_OPTIMAL ... LCG_UNBOUNDED */
	int first_lp;          /* out: how the first LP was solved: 1 warm, 2 cold, 3 warm cut short then cold */
} lcg_cbc_result;

/* lcg_cbc_new loads a model given column-wise. Bounds may be +-HUGE_VAL.
 * It returns NULL only when out of memory; a non-empty lcg_cbc_error
 * reports a load failure (then call lcg_cbc_free). */
lcg_cbc *lcg_cbc_new(int ncols, int nrows, const int *start, const int *index,
		const double *value, const double *col_lo, const double *col_up,
		const unsigned char *is_int, const double *row_lo, const double *row_up);
void lcg_cbc_free(lcg_cbc *s);
/* lcg_cbc_error returns the message of the last failure ("" if none). */
const char *lcg_cbc_error(const lcg_cbc *s);
/* lcg_cbc_set_col_bounds changes the bounds of column j for later solves. */
void lcg_cbc_set_col_bounds(lcg_cbc *s, int j, double lo, double up);
/* lcg_cbc_set_cuts stores a cut pool: nrows inequalities lo <= a.x <= up,
 * given row-wise (row i has the nonzeros start[i] .. start[i+1]-1 of index
 * and value; bounds may be +-HUGE_VAL), that every integer point of the
 * model satisfies. Solves with params.pool set add the most violated of
 * them as cuts at every node (the standard search only without
 * preprocessing). nrows = 0 removes the pool. A failure is reported by
 * lcg_cbc_error. */
void lcg_cbc_set_cuts(lcg_cbc *s, int nrows, const int *start, const int *index,
		const double *value, const double *lo, const double *up);
/* lcg_cbc_solve minimizes params->obj and fills res. Calls on different
 * solvers may run at the same time on different threads: CBC's standard
 * solve path keeps process-wide state (its command reader) outside its
 * branch-and-bound, so standard searches take turns there (waiting for
 * their turn ends on cancel and at the time limit) and overlap in their
 * branch-and-bound; light searches overlap entirely. Calls on one solver
 * must not overlap. */
int lcg_cbc_solve(lcg_cbc *s, const lcg_cbc_params *params, lcg_cbc_result *res);
/* lcg_cbc_test_hold_main is a test hook: with hold != 0 it takes the lock
 * that serializes CBC's standard solve path outside branch-and-bound, as a
 * standard search in its setup would (returning 0 if it was taken already),
 * and with hold == 0 it releases it. */
int lcg_cbc_test_hold_main(int hold);
/* lcg_cbc_cancel asks a running lcg_cbc_solve to stop, within its LP
 * iterations as well as its search; it may be called from any thread.
 * lcg_cbc_clear_cancel resets the request before a solve. */
void lcg_cbc_cancel(lcg_cbc *s);
void lcg_cbc_clear_cancel(lcg_cbc *s);

#ifdef __cplusplus
}
#endif

#endif
