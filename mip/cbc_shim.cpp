// CBC shim for package mip: see cbc_shim.h.

#include "cbc_shim.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <CbcEventHandler.hpp>
#include <CbcHeuristic.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicRINS.hpp>
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
#include <CoinTime.hpp>
#include <CoinWarmStartBasis.hpp>
#include <OsiClpSolverInterface.hpp>

namespace {

// StopState is shared between a solve and the event handler clones that
// CBC makes of our handler.
struct StopState {
	std::atomic<int> cancel{0};
	double improve = -COIN_DBL_MAX;
	double certify = COIN_DBL_MAX;
	double deadline = 0; // CoinGetTimeOfDay() value, 0: none
	double t0 = 0;
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
		if (getenv("LCG_DEBUG")) { double off = 0; m->solver()->getDblParam(OsiObjOffset, off); double ov = 0; if (inc) { const double *o = m->solver()->getObjCoefficients(); for (int j = 0; j < m->solver()->getNumCols(); j++) ov += o[j]*m->bestSolution()[j]; } fprintf(stderr, "t=%.3f ev %d nodes=%d inc=%d v=%.6f b=%.6f off=%g cols=%d recomputed=%.6f\n", CoinGetTimeOfDay() - st_->t0, (int)e, m->getNodeCount(), (int)inc, v, b, off, m->solver()->getNumCols(), ov); }
		if (b > st_->bound && b < COIN_DBL_MAX) {
			st_->bound = b;
		}
		// During the root cut loop the best bound is not refreshed, but
		// the root LP with the cuts so far is a valid global bound.
		if (getenv("LCG_DEBUG") && e == generatedCuts) fprintf(stderr, "210: phase %d opt %d lp %.6f cur %.6f\n", m->phase(), (int)m->solver()->isProvenOptimal(), m->solver()->getObjValue(), m->getCurrentMinimizationObjValue());
		if (e == node || e == treeStatus) {
			st_->inTree = true;
		}
		if (e == generatedCuts && !st_->inTree && (m->phase() == 1 || m->phase() == 3) && m->getNodeCount() == 0) {
			const OsiSolverInterface *lp = m->solver();
			if (lp->isProvenOptimal()) {
				const double rb = lp->getObjValue() * lp->getObjSense();
				if (getenv("LCG_DEBUG")) fprintf(stderr, "rootLP %.6f\n", rb);
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

} // namespace

struct lcg_cbc {
	OsiClpSolverInterface base;
	int ncols = 0;
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
	CbcModel model(s->base);
	model.setLogLevel(0);
	model.messageHandler()->setLogLevel(0);
	model.solver()->messageHandler()->setLogLevel(0);
	StopHandler handler(&st);
	model.passInEventHandler(&handler);
	// The best bound is refreshed only every printFrequency nodes.
	model.setPrintFrequency(1);
	model.setUseElapsedTime(true);
	if (p->rel_gap > 0) {
		model.setAllowableFractionGap(p->rel_gap);
	}
	if (p->threads > 1) {
		model.setNumberThreads(p->threads);
	}

	st.t0 = t0;
	model.initialSolve();
	if (getenv("LCG_DEBUG")) fprintf(stderr, "initialSolve done t=%.3f\n", CoinGetTimeOfDay() - t0);
	OsiSolverInterface *lp = model.solver();
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
	if (p->cutoff < COIN_DBL_MAX) {
		if (lp->getObjValue() >= p->cutoff) {
			r->bound = lp->getObjValue();
			return LCG_INFEASIBLE;
		}
		model.setCutoff(p->cutoff);
	}
	if (st.deadline > 0) {
		double left = st.deadline - CoinGetTimeOfDay();
		model.setMaximumSeconds(left > 0 ? left : 0);
	}

	const char *passesEnv = getenv("LCG_PASSES");
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
	if (passesEnv) {
		model.addCutGenerator(&probing, -99, "Probing");
		model.addCutGenerator(&gomory, -99, "Gomory");
		model.addCutGenerator(&knapsack, -99, "Knapsack");
		model.addCutGenerator(&clique, -99, "Clique");
		model.addCutGenerator(&flow, -99, "FlowCover");
		model.addCutGenerator(&mir, -99, "MIR2");
		model.setMaximumCutPassesAtRoot(atoi(passesEnv));
	}
	CbcStrategyDefault strategy(getenv("LCG_NOCUTS") || passesEnv ? -1 : 1, 5, 5);
	strategy.setupPreProcessing(getenv("LCG_NOPRE") ? 0 : 1);
	model.setStrategy(strategy);
	CbcHeuristicFPump pump(model);
	pump.setMaximumPasses(20);
	if (!getenv("LCG_NOPUMP")) model.addHeuristic(&pump);
	CbcHeuristicRINS rins(model);
	if (!getenv("LCG_NORINS")) model.addHeuristic(&rins);

	model.branchAndBound();

	r->nodes = model.getNodeCount();
	if (getenv("LCG_DEBUG")) fprintf(stderr, "end: obj=%.6f bound=%.6f cols=%d status=%d/%d\n", model.getObjValue(), model.getBestPossibleObjValue(), model.getNumCols(), model.status(), model.secondaryStatus());
	const double *best = model.bestSolution();
	if (best != nullptr && model.getNumCols() == s->ncols) {
		std::memcpy(r->x, best, sizeof(double) * s->ncols);
		r->found = 1;
		r->value = model.getMinimizationObjValue();
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
	} else if (sec == 1) {
		return LCG_INFEASIBLE;
	} else if (sec == 7) {
		return LCG_UNBOUNDED;
	} else if (model.status() == 0) {
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

int lcg_cbc_solve(lcg_cbc *s, const lcg_cbc_params *p, lcg_cbc_result *r)
{
	s->err.clear();
	try {
		return solve(s, p, r);
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
