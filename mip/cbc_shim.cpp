// CBC shim for package mip: see cbc_shim.h.

#include "cbc_shim.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <CbcEventHandler.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicRINS.hpp>
#include <CbcCompareObjective.hpp>
#include <CbcModel.hpp>
#include <CbcStrategy.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CoinError.hpp>
#include <CoinFinite.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinTime.hpp>
#include <OsiClpSolverInterface.hpp>

namespace {

// StopState is shared between a solve and the event handler clones that
// CBC makes of our handler.
struct StopState {
	std::mutex mu; // guards the fields below except cancel
	std::atomic<int> cancel{0};
	double improve = -COIN_DBL_MAX;
	double certify = COIN_DBL_MAX;
	double deadline = 0; // CoinGetTimeOfDay() value, 0: none
	bool inTree = false; // a node or tree status event was seen
	bool first = false;
	int reason = -1;           // LCG_* once a stop was decided
	double bound = -COIN_DBL_MAX; // best lower bound seen on the main model
};

class StopHandler : public CbcEventHandler {
public:
	explicit StopHandler(StopState *st) : st_(st) {}
	StopHandler(const StopHandler &o) : CbcEventHandler(o), st_(o.st_) {}
	CbcEventHandler *clone() const override { return new StopHandler(*this); }

	CbcAction event(CbcEvent e) override
	{
		const CbcModel *m = getModel();
		if (m == nullptr) {
			return noAction;
		}
		// With Threads > 1, CBC's worker threads may call in concurrently.
		std::lock_guard<std::mutex> lock(st_->mu);
		// Sub-models (heuristic sub-MIPs) see their own incumbents and
		// bounds, which say nothing about ours.
		const bool sub = m->parentModel() != nullptr;
		if (st_->reason < 0) {
			if (st_->cancel.load(std::memory_order_relaxed)) {
				st_->reason = LCG_CANCELED;
			} else if (st_->deadline > 0 && CoinGetTimeOfDay() >= st_->deadline) {
				st_->reason = LCG_TIMELIMIT;
			} else if (!sub) {
				observe(m, e);
			}
		}
		if (st_->reason < 0) {
			return noAction;
		}
		// A stop must also end the hidden small branch-and-bounds, and the
		// root cut loop honours it only together with a zero time limit.
		if (e == smallBranchAndBound) {
			return killSolution;
		}
		const_cast<CbcModel *>(m)->setMaximumSeconds(0);
		return stop;
	}

private:
	void observe(const CbcModel *m, CbcEvent e)
	{
		const bool inc = m->bestSolution() != nullptr;
		const double v = m->getMinimizationObjValue();
		const double b = m->getBestPossibleObjValue();
		if (b > st_->bound && b < COIN_DBL_MAX) {
			st_->bound = b;
		}
		// During the root cut loop the best bound is not refreshed, but
		// the root LP with the cuts so far is a valid global bound.
		if (e == node || e == treeStatus) {
			st_->inTree = true;
		}
		if (e == generatedCuts && !st_->inTree && (m->phase() == 1 || m->phase() == 3) && m->getNodeCount() == 0) {
			const OsiSolverInterface *lp = m->solver();
			if (lp->isProvenOptimal()) {
				double rb = lp->getObjValue() * lp->getObjSense();
				if (inc && rb > v) {
					rb = v; // the LP may exceed the incumbent's cutoff
				}
				if (rb > st_->bound && rb < COIN_DBL_MAX) {
					st_->bound = rb;
				}
			}
		}
		if (inc && st_->first) {
			st_->reason = LCG_FIRST;
		} else if (inc && v < st_->improve - 1e-9 * std::fmax(1.0, std::fabs(st_->improve))) {
			st_->reason = LCG_IMPROVING;
		} else if (st_->bound >= st_->certify) {
			st_->reason = LCG_CERTIFIED;
		}
	}

	StopState *st_;
};

// rootPasses bounds the rounds of cut generation at the root.
const int rootPasses = 10;

double toCoin(double v)
{
	if (v >= COIN_DBL_MAX) {
		return COIN_DBL_MAX;
	}
	if (v <= -COIN_DBL_MAX) {
		return -COIN_DBL_MAX;
	}
	return v;
}

// integral reports whether the LP solution is integral on the integer
// columns (to 1e-9).
bool integral(const OsiSolverInterface &lp)
{
	const double *x = lp.getColSolution();
	const int n = lp.getNumCols();
	for (int j = 0; j < n; j++) {
		if (lp.isInteger(j) && std::fabs(x[j] - std::floor(x[j] + 0.5)) > 1e-9) {
			return false;
		}
	}
	return true;
}

// checkSolution verifies x against the loaded model: bounds, integrality
// and rows, each to a tolerance of 1e-6 (relative for large values). It
// guards against solver defects such as the one described at the
// preprocessing setup below.
bool checkSolution(const OsiSolverInterface &m, const double *x, std::string *why)
{
	const double tol = 1e-6;
	const int n = m.getNumCols();
	const double *lo = m.getColLower();
	const double *up = m.getColUpper();
	for (int j = 0; j < n; j++) {
		const double t = tol * std::fmax(1.0, std::fabs(x[j]));
		if (!(x[j] >= lo[j] - t && x[j] <= up[j] + t)) {
			*why = "column " + std::to_string(j) + " violates its bounds";
			return false;
		}
		if (m.isInteger(j) && std::fabs(x[j] - std::floor(x[j] + 0.5)) > 1e-5) {
			*why = "integer column " + std::to_string(j) + " is fractional";
			return false;
		}
	}
	const int nr = m.getNumRows();
	std::vector<double> act(nr, 0.0), mag(nr, 0.0);
	const CoinPackedMatrix *a = m.getMatrixByCol();
	const CoinBigIndex *start = a->getVectorStarts();
	const int *len = a->getVectorLengths();
	const int *ind = a->getIndices();
	const double *val = a->getElements();
	for (int j = 0; j < n; j++) {
		for (CoinBigIndex k = start[j]; k < start[j] + len[j]; k++) {
			act[ind[k]] += val[k] * x[j];
			mag[ind[k]] += std::fabs(val[k] * x[j]);
		}
	}
	const double *rlo = m.getRowLower();
	const double *rup = m.getRowUpper();
	for (int i = 0; i < nr; i++) {
		const double t = tol * std::fmax(1.0, mag[i]);
		if (!(act[i] >= rlo[i] - t && act[i] <= rup[i] + t)) {
			*why = "row " + std::to_string(i) + " is violated";
			return false;
		}
	}
	return true;
}

} // namespace

struct lcg_cbc {
	OsiClpSolverInterface base;
	int ncols = 0;
	std::vector<double> obj; // scaled objective
	StopState st;
	std::string err;
};

extern "C" {

lcg_cbc *lcg_cbc_new(int ncols, int nrows, const int *start, const int *index,
		const double *value, const double *col_lo, const double *col_up,
		const unsigned char *is_int, const double *row_lo, const double *row_up)
{
	lcg_cbc *s = new (std::nothrow) lcg_cbc;
	if (s == nullptr) {
		return nullptr;
	}
	try {
		s->ncols = ncols;
		s->base.messageHandler()->setLogLevel(0);
		s->base.getModelPtr()->messageHandler()->setLogLevel(0);
		s->base.setHintParam(OsiDoReducePrint, true, OsiHintTry);
		std::vector<double> clo(ncols), cup(ncols), rlo(nrows), rup(nrows), obj(ncols, 0.0);
		for (int j = 0; j < ncols; j++) {
			clo[j] = toCoin(col_lo[j]);
			cup[j] = toCoin(col_up[j]);
		}
		for (int i = 0; i < nrows; i++) {
			rlo[i] = toCoin(row_lo[i]);
			rup[i] = toCoin(row_up[i]);
		}
		s->base.loadProblem(ncols, nrows, start, index, value, clo.data(), cup.data(),
				obj.data(), rlo.data(), rup.data());
		for (int j = 0; j < ncols; j++) {
			if (is_int[j]) {
				s->base.setInteger(j);
			}
		}
	} catch (CoinError &e) {
		s->err = "loading model: " + e.message() + " (in " + e.className() + "::" + e.methodName() + ")";
	} catch (std::exception &e) {
		s->err = std::string("loading model: ") + e.what();
	} catch (...) {
		s->err = "loading model: unknown C++ exception";
	}
	return s;
}

void lcg_cbc_free(lcg_cbc *s)
{
	delete s;
}

const char *lcg_cbc_error(const lcg_cbc *s)
{
	return s->err.c_str();
}

void lcg_cbc_set_col_upper(lcg_cbc *s, int j, double up)
{
	s->base.setColUpper(j, toCoin(up));
}

void lcg_cbc_cancel(lcg_cbc *s)
{
	s->st.cancel.store(1);
}

void lcg_cbc_clear_cancel(lcg_cbc *s)
{
	s->st.cancel.store(0);
}

static int solve(lcg_cbc *s, const lcg_cbc_params *p, lcg_cbc_result *r)
{
	StopState &st = s->st;
	st.improve = p->improve;
	st.certify = p->certify;
	st.first = p->first_solution != 0;
	st.reason = -1;
	st.inTree = false;
	st.bound = -COIN_DBL_MAX;
	const double t0 = CoinGetTimeOfDay();
	st.deadline = p->time_limit > 0 ? t0 + p->time_limit : 0;

	r->found = 0;
	r->value = HUGE_VAL;
	r->bound = -HUGE_VAL;
	r->nodes = 0;
	r->reason = LCG_OPTIMAL;

	s->base.setObjective(p->obj);
	std::unique_ptr<OsiSolverInterface> lp(s->base.clone());
	lp->messageHandler()->setLogLevel(0);
	lp->initialSolve();
	if (st.cancel.load()) {
		r->reason = LCG_CANCELED;
		return LCG_OK;
	}
	if (lp->isProvenPrimalInfeasible()) {
		return LCG_INFEASIBLE;
	}
	if (lp->isProvenDualInfeasible()) {
		return LCG_UNBOUNDED;
	}
	if (!lp->isProvenOptimal()) {
		s->err = "LP relaxation not solved to optimality (numerical difficulties or iteration limit)";
		return LCG_ERROR;
	}
	const double lpValue = lp->getObjValue() * lp->getObjSense();
	if (p->cutoff < COIN_DBL_MAX && lpValue >= p->cutoff) {
		r->bound = lpValue;
		return LCG_INFEASIBLE;
	}
	if (lpValue >= p->certify) {
		r->bound = lpValue;
		r->reason = LCG_CERTIFIED;
		return LCG_OK;
	}
	double startValue = COIN_DBL_MAX;
	if (p->start != nullptr) {
		startValue = 0;
		for (int j = 0; j < s->ncols; j++) {
			startValue += p->obj[j] * p->start[j];
		}
		if (lpValue >= startValue - 1e-9 * std::fmax(1.0, std::fabs(startValue))) {
			// The start solution attains the LP bound.
			std::memcpy(r->x, p->start, sizeof(double) * s->ncols);
			r->found = 1;
			r->value = startValue;
			r->bound = std::fmin(lpValue, startValue);
			r->reason = LCG_OPTIMAL;
			return LCG_OK;
		}
	}
	if (integral(*lp)) {
		// The LP optimum is an integer solution, hence optimal.
		std::memcpy(r->x, lp->getColSolution(), sizeof(double) * s->ncols);
		r->found = 1;
		r->value = lpValue;
		r->bound = lpValue;
		r->reason = LCG_OPTIMAL;
		return LCG_OK;
	}

	// No integer preprocessing (CglPreProcess): in CBC 2.10.8 it lost the
	// optimum on small random 0/1 models, both through CbcStrategyDefault
	// (which also returned fractional points as solutions, with and without
	// a cutoff) and when called directly as the cbc program does.
	CbcModel model(*lp);
	model.setLogLevel(0);
	model.messageHandler()->setLogLevel(0);
	model.solver()->messageHandler()->setLogLevel(0);
	StopHandler handler(&st);
	model.passInEventHandler(&handler);
	// The best bound is refreshed only every printFrequency nodes.
	model.setPrintFrequency(1);
	model.setUseElapsedTime(true);
	// Solve to 1e-9 (of the scaled objective) rather than CBC's 1e-5.
	model.setCutoffIncrement(1e-9);
	if (p->rel_gap > 0) {
		model.setAllowableFractionGap(p->rel_gap);
	}
	if (p->threads > 1) {
		model.setNumberThreads(p->threads);
	}
	if (p->cutoff < COIN_DBL_MAX) {
		model.setCutoff(p->cutoff);
	}
	if (p->start != nullptr) {
		// The incumbent also sets CBC's cutoff and lets improvement
		// heuristics (RINS) start from it.
		model.setBestSolution(p->start, s->ncols, startValue, true);
	}
	if (st.deadline > 0) {
		double left = st.deadline - CoinGetTimeOfDay();
		model.setMaximumSeconds(left > 0 ? left : 0);
	}

	CglProbing probing;
	probing.setUsingObjective(true);
	probing.setMaxPass(1);
	probing.setMaxPassRoot(1);
	probing.setMaxProbe(10);
	probing.setMaxLook(10);
	probing.setMaxElements(200);
	probing.setMaxElementsRoot(300);
	CglGomory gomory;
	gomory.setLimit(300);
	CglKnapsackCover knapsack;
	CglClique clique;
	clique.setStarCliqueReport(false);
	clique.setRowCliqueReport(false);
	CglMixedIntegerRounding2 mir;
	CglFlowCover flow;
	// Cuts at the root only, at most rootPasses rounds: CbcStrategyDefault
	// would force at least 50, which on set-partitioning models such as
	// eil33-2 costs seconds without moving the bound.
	model.addCutGenerator(&probing, -99, "Probing");
	model.addCutGenerator(&gomory, -99, "Gomory");
	model.addCutGenerator(&knapsack, -99, "Knapsack");
	model.addCutGenerator(&clique, -99, "Clique");
	model.addCutGenerator(&flow, -99, "FlowCover");
	model.addCutGenerator(&mir, -99, "MixedIntegerRounding2");
	model.setMaximumCutPassesAtRoot(rootPasses);
	// The strategy adds the rounding heuristic and strong branching
	// settings, but no further cuts and no preprocessing (see above).
	CbcStrategyDefault strategy(-1, 5, 5);
	strategy.setupPreProcessing(0);
	model.setStrategy(strategy);
	CbcHeuristicFPump pump(model);
	pump.setMaximumPasses(20);
	model.addHeuristic(&pump);
	CbcHeuristicRINS rins(model);
	model.addHeuristic(&rins);

	// With a bound to certify, search best-first: that raises the global
	// bound fastest (CBC's default dives depth-first until it has an
	// incumbent, which leaves the bound at the root value for long).
	CbcCompareObjective bestFirst;
	if (p->certify < COIN_DBL_MAX) {
		model.setNodeComparison(bestFirst);
	}
	model.branchAndBound();

	r->nodes = model.getNodeCount();
	const double *best = model.bestSolution();
	if (best != nullptr && model.getNumCols() == s->ncols) {
		std::string why;
		if (!checkSolution(s->base, best, &why)) {
			s->err = "CBC returned an infeasible solution (" + why + ")";
			return LCG_ERROR;
		}
		std::memcpy(r->x, best, sizeof(double) * s->ncols);
		r->found = 1;
		r->value = 0;
		for (int j = 0; j < s->ncols; j++) {
			r->value += p->obj[j] * best[j];
		}
	} else if (best != nullptr) {
		s->err = "solution has " + std::to_string(model.getNumCols()) + " columns, model " + std::to_string(s->ncols);
		return LCG_ERROR;
	}
	double b = model.getBestPossibleObjValue();
	if (st.bound > b) {
		b = st.bound;
	}
	const int sec = model.secondaryStatus();
	if (st.reason >= 0) {
		r->reason = st.reason;
	} else if (model.isSecondsLimitReached() || sec == 4) {
		r->reason = LCG_TIMELIMIT;
	} else if (sec == 2) {
		r->reason = LCG_GAP;
	} else if (sec == 7) {
		return LCG_UNBOUNDED;
	} else if (model.status() == 0) {
		// Search complete (secondary status 1: the root LP is infeasible,
		// possibly only under the incumbent's cutoff).
		r->reason = LCG_OPTIMAL;
		if (!r->found) {
			r->bound = p->cutoff;
			return LCG_INFEASIBLE;
		}
		b = r->value;
	} else {
		s->err = "CBC stopped with status " + std::to_string(model.status()) + "/" + std::to_string(sec);
		return LCG_ERROR;
	}
	if (r->found && b > r->value) {
		b = r->value;
	}
	r->bound = b > -COIN_DBL_MAX ? b : -HUGE_VAL;
	return LCG_OK;
}

// objectiveScale returns the power of two by which the objective is divided
// so that its largest coefficient is in [1, 2): CBC's tolerances (cutoff
// increment 1e-5, integrality and feasibility tolerances) are absolute,
// so tiny or huge objectives would otherwise be solved to the wrong
// precision. Integral objectives keep scale 1 so that CBC still
// recognizes their integrality and prunes by whole units.
static double objectiveScale(const double *obj, int n)
{
	double big = 0;
	bool integral = true;
	for (int j = 0; j < n; j++) {
		big = std::fmax(big, std::fabs(obj[j]));
		if (obj[j] != std::floor(obj[j])) {
			integral = false;
		}
	}
	if (big == 0 || integral) {
		return 1;
	}
	int e = 0;
	std::frexp(big, &e); // big = f * 2^e with f in [0.5, 1)
	return std::ldexp(1.0, e - 1);
}

int lcg_cbc_solve(lcg_cbc *s, const lcg_cbc_params *p, lcg_cbc_result *r)
{
	s->err.clear();
	try {
		const double scale = objectiveScale(p->obj, s->ncols);
		s->obj.resize(s->ncols);
		for (int j = 0; j < s->ncols; j++) {
			s->obj[j] = p->obj[j] / scale;
		}
		lcg_cbc_params q = *p;
		q.obj = s->obj.data();
		q.improve /= scale;
		q.certify /= scale;
		q.cutoff /= scale;
		const int code = solve(s, &q, r);
		r->value *= scale;
		r->bound *= scale;
		return code;
	} catch (CoinError &e) {
		s->err = e.message() + " (in " + e.className() + "::" + e.methodName() + ")";
	} catch (std::bad_alloc &) {
		s->err = "out of memory";
	} catch (std::exception &e) {
		s->err = e.what();
	} catch (...) {
		s->err = "unknown C++ exception";
	}
	return LCG_ERROR;
}

} // extern "C"
