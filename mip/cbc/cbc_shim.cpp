// CBC shim for package cbc: see cbc_shim.h.

#include "cbc_shim.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <malloc.h>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <CbcCompareObjective.hpp>
#include <CbcCutGenerator.hpp>
#include <CbcEventHandler.hpp>
#include <CbcHeuristicDiveCoefficient.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicGreedy.hpp>
#include <CbcHeuristicRINS.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CbcStrategy.hpp>
#include <CglCutGenerator.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <ClpEventHandler.hpp>
#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <CoinError.hpp>
#include <CoinFinite.hpp>
#include <CoinTime.hpp>
#include <CoinWarmStartBasis.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiCuts.hpp>
#include <OsiRowCut.hpp>

namespace {

// StopState is shared between a solve, the CBC event handler clones that
// CBC makes of our handler and the Clp event handler clones in every LP.
struct StopState {
	std::mutex mu; // guards the fields below except cancel and deadline
	std::atomic<int> cancel{0};
	std::atomic<double> deadline{0}; // CoinGetTimeOfDay() value, 0: none
	bool anyIncumbent = false;     // improve = +inf: stop at the first incumbent
	double improve = -COIN_DBL_MAX; // stop below this (already lowered by 1e-9 relative)
	double certify = COIN_DBL_MAX;
	double relGap = 0;
	bool inTree = false;           // a node or tree status event was seen
	int reason = -1;               // LCG_* once a stop was decided
	double bound = -COIN_DBL_MAX;  // best lower bound seen on the main model
	// Thread CPU time (threadSeconds) at which LPStop ends a warm LP
	// re-solve that has become slower than a cold solve (0: none); read
	// and written on the solving thread only.
	double lpStopAt = 0;

	// interrupted reports whether the cancel flag or the deadline says stop.
	bool interrupted(int *why)
	{
		if (cancel.load(std::memory_order_relaxed)) {
			*why = LCG_CANCELED;
			return true;
		}
		double d = deadline.load(std::memory_order_relaxed);
		if (d > 0 && CoinGetTimeOfDay() >= d) {
			*why = LCG_TIMELIMIT;
			return true;
		}
		return false;
	}
};

// threadSeconds returns the CPU time of the calling thread.
double threadSeconds()
{
	timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
		return CoinCpuTime();
	}
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// LPStop ends Clp's simplex iterations when the solve is canceled or out of
// time, so that a large LP does not delay either, and a warm re-solve past
// its budget (StopState::lpStopAt). Once it has fired, LP results are not
// trusted: the solve reports the bound seen before (or, for a warm
// re-solve cut short, solves the LP afresh).
class LPStop : public ClpEventHandler {
public:
	explicit LPStop(StopState *st) : st_(st) {}
	LPStop(const LPStop &o) : ClpEventHandler(o), st_(o.st_) {}
	ClpEventHandler *clone() const override { return new LPStop(*this); }
	int event(Event e) override
	{
		int why;
		if (e == endOfIteration && (st_->interrupted(&why) || (st_->lpStopAt > 0 && threadSeconds() >= st_->lpStopAt))) {
			return 0; // stop: ClpModel::status() 5
		}
		return -1;
	}

private:
	StopState *st_;
};

class StopHandler : public CbcEventHandler {
public:
	explicit StopHandler(StopState *st) : st_(st) {}
	StopHandler(const StopHandler &o) : CbcEventHandler(o), st_(o.st_) {}
	CbcEventHandler *clone() const override { return new StopHandler(*this); }

	// The feasibility pump (heuristicPass, every pass) and heuristics about
	// to start a small branch-and-bound (smallBranchAndBound) call this
	// overload: once a stop is decided, killSolution ends them.
	CbcAction event(CbcEvent e, void *) override
	{
		if (e != heuristicPass && e != smallBranchAndBound) {
			return event(e);
		}
		std::lock_guard<std::mutex> lock(st_->mu);
		int why;
		if (st_->reason < 0 && st_->interrupted(&why)) {
			st_->reason = why;
		}
		return st_->reason >= 0 ? killSolution : noAction;
	}

	CbcAction event(CbcEvent e) override
	{
		const CbcModel *m = getModel();
		if (m == nullptr) {
			return noAction;
		}
		// For these events CBC shows a candidate as the best solution
		// (CbcModel::dealWithEventHandler) before it is checked, and
		// where the feasibility pump raises heuristicSolution it
		// installs the candidate unchecked as the incumbent when told to
		// stop: a fractional point (or, preprocessed, one that
		// postprocessing drops) ended Augment and cutoff calls
		// (TestCBCPumpCandidateNotIncumbent). The candidate is no
		// incumbent, and a stop decided here is returned at the next
		// event (or the search ends by itself).
		const bool candidate = e == heuristicSolution || e == beforeSolution1 || e == beforeSolution2;
		// With Threads > 1, CBC's worker threads may call in concurrently.
		std::lock_guard<std::mutex> lock(st_->mu);
		// Sub-models (heuristic sub-MIPs) see their own incumbents and
		// bounds, which say nothing about ours.
		const bool sub = m->parentModel() != nullptr;
		if (st_->reason < 0) {
			int why;
			if (st_->interrupted(&why)) {
				st_->reason = why;
			} else if (!sub) {
				observe(m, e, candidate);
			}
		}
		if (st_->reason < 0 || candidate) {
			return noAction;
		}
		// The root cut loop honours a stop only together with a zero time
		// limit.
		const_cast<CbcModel *>(m)->setMaximumSeconds(0);
		return stop;
	}

private:
	void observe(const CbcModel *m, CbcEvent e, bool candidate)
	{
		const bool inc = !candidate && m->bestSolution() != nullptr;
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
		if (inc && (st_->anyIncumbent || v < st_->improve)) {
			st_->reason = LCG_IMPROVING;
		} else if (st_->bound >= st_->certify) {
			st_->reason = LCG_CERTIFIED;
		} else if (inc && st_->relGap > 0 && st_->bound > -COIN_DBL_MAX &&
				v - st_->bound <= st_->relGap * std::fmax(std::fabs(v), std::fabs(st_->bound))) {
			st_->reason = LCG_GAP;
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

// withinGap reports whether value and bound are within the relative gap g
// (CBC's definition: value − bound ≤ g·max(|value|, |bound|)).
bool withinGap(double value, double bound, double g)
{
	return g > 0 && value - bound <= g * std::fmax(std::fabs(value), std::fabs(bound));
}

// PoolCuts separates the inequalities of a cut pool (lcg_cbc_set_cuts):
// valid for every integer point of the model but left out of its rows, so
// that node LPs carry only the ones that matter. Each round it adds the
// poolPerRound most violated ones (by more than poolViolation), as
// globally valid cuts; CBC drops them again when they stay slack.
class PoolCuts : public CglCutGenerator {
public:
	int ncols = 0; // of the model the indices refer to
	std::vector<int> start{0}, index;
	std::vector<double> value, lo, up;
	std::vector<double> scale; // 1/‖row‖₂ (lcg_cbc_set_cuts)
	std::vector<std::pair<double, int>> viol; // scratch

	CglCutGenerator *clone() const override { return new PoolCuts(*this); }

	void generateCuts(const OsiSolverInterface &si, OsiCuts &cs,
			const CglTreeInfo info = CglTreeInfo()) override
	{
		(void)info;
		if (si.getNumCols() != ncols) {
			return; // not the model's columns (never expected)
		}
		const double *x = si.getColSolution();
		const int n = static_cast<int>(lo.size());
		viol.clear();
		for (int i = 0; i < n; i++) {
			double a = 0;
			for (int k = start[i]; k < start[i + 1]; k++) {
				a += value[k] * x[index[k]];
			}
			const double v = std::fmax(lo[i] - a, a - up[i]) * scale[i];
			if (v > poolViolation) {
				viol.push_back({-v, i});
			}
		}
		if (static_cast<int>(viol.size()) > poolPerRound) {
			std::nth_element(viol.begin(), viol.begin() + poolPerRound, viol.end());
			viol.resize(poolPerRound);
		}
		for (const auto &e : viol) {
			const int i = e.second;
			OsiRowCut rc;
			rc.setRow(start[i + 1] - start[i], &index[start[i]], &value[start[i]], false);
			rc.setLb(lo[i]); // ±COIN_DBL_MAX where infinite (toCoin)
			rc.setUb(up[i]);
			rc.setGloballyValid(true);
			cs.insertIfNotDuplicate(rc);
		}
	}

	// poolPerRound bounds the cuts added per round; poolViolation is the
	// least violation (of the row scaled to unit norm) that counts.
	static const int poolPerRound = 500;
	static constexpr double poolViolation = 1e-6;
};

} // namespace

struct lcg_cbc {
	OsiClpSolverInterface base;
	int ncols = 0;
	// The optimal basis of the last first LP: the next call starts from
	// it (primal simplex when only the objective changed).
	std::unique_ptr<CoinWarmStartBasis> basis;
	bool boundsChanged = false;
	// The first LP of a call: thread CPU seconds of cold solves and of
	// warm re-solves (running means; negative: none measured yet), whether
	// calls solve it cold, and the cold solves since the last warm
	// re-solve and before the next probe (see solve).
	double coldLP = -1, warmLP = -1;
	bool coldMode = false;
	int coldRun = 0, probeEvery = 0;
	std::vector<double> obj; // scaled objective
	// The cut pool (lcg_cbc_set_cuts) that solves with params.pool set
	// separate, or none.
	std::unique_ptr<PoolCuts> pool;
	StopState st;
	std::string err;
	// The current solve, for the callback of CbcMain1.
	const lcg_cbc_params *p = nullptr;
	double startValue = 0;
	bool preprocess = false;
	// What the search left, read by the callback at whereFrom 4 (just
	// after branchAndBound) and, with preprocessing, 5 (after
	// postprocessing, in the original columns).
	bool searched = false;  // branchAndBound ran
	bool provenInfeasible = false; // CbcMain1 ended before its search: infeasible
	bool haveSolution = false;
	std::vector<double> solution;
	long long nodes = 0;
	double bestPossible = -COIN_DBL_MAX;
	int status = -1, secondary = -1;
	bool secondsReached = false;
};

namespace {

// current is the solver whose solve runs CbcMain1 on this thread (CbcMain1
// takes a plain function as its callback).
thread_local lcg_cbc *current = nullptr;

// mainBusy serializes CbcMain1 outside branch-and-bound. CbcMain1 keeps
// process-wide state: its command reader's position in argv and input
// file (CbcOrClpRead_mode, CbcOrClpReadCommand) and a few file-level
// statics used while it parses, preprocesses, sets up heuristics and
// postprocesses. Between its callback's whereFrom 3 (just before
// branchAndBound) and 4 (just after) it runs only the CbcModel's own
// branch-and-bound, which keeps its state in the model (the light search
// runs the same CbcModel::branchAndBound concurrently). So a standard
// search holds mainBusy from CbcMain0 until whereFrom 3, and a search
// without preprocessing, whose callback ends CbcMain1 at whereFrom 4 (it
// returns at once), never takes it again: the expensive part of standard
// searches of different solvers runs concurrently. A search with
// preprocessing keeps mainBusy to its end (postprocessing follows the
// search). A flag rather than a mutex, so that a thread other than the
// holder may release it (lcg_cbc_test_hold_main). mainHeld says whether
// this thread holds it.
std::atomic<bool> mainBusy{false};
thread_local bool mainHeld = false;

// lockMain takes mainBusy for st's solve, giving up (false, *why set)
// when the solve is canceled or out of time while it waits.
bool lockMain(StopState &st, int *why)
{
	while (mainBusy.exchange(true, std::memory_order_acquire)) {
		if (st.interrupted(why)) {
			return false;
		}
		std::this_thread::sleep_for(std::chrono::microseconds(200));
	}
	mainHeld = true;
	return true;
}

// unlockMain releases mainBusy if this thread holds it.
void unlockMain()
{
	if (mainHeld) {
		mainHeld = false;
		mainBusy.store(false, std::memory_order_release);
	}
}

// MainGuard releases mainBusy when a standard search ends, however it ends.
struct MainGuard {
	~MainGuard() { unlockMain(); }
};

// latticeCosts reports whether CbcModel::analyzeObjective may find a
// cutoff increment for m's costs: as it does, every nonzero cost of an
// unfixed column, times 2520·10^k (k the largest with 10·multiplier·max|c|
// < 1e8), is within 1e-8 of an integer, or for products of 2.1e9 and more
// the cost itself is. Continuous columns with a nonzero cost count as a
// possible lattice (analyzeObjective's multiplier for them is not
// reproduced here).
bool latticeCosts(const CbcModel *m)
{
	const OsiSolverInterface *lp = m->solver();
	const int n = lp->getNumCols();
	const double *obj = lp->getObjCoefficients();
	const double *lo = lp->getColLower();
	const double *up = lp->getColUpper();
	double cmax = 0;
	for (int j = 0; j < n; j++) {
		if (up[j] > lo[j] + 1e-8) {
			cmax = std::fmax(cmax, std::fabs(obj[j]));
		}
	}
	if (cmax == 0) {
		return false;
	}
	double mult = 2520;
	while (10 * mult * cmax < 1e8) {
		mult *= 10;
	}
	for (int j = 0; j < n; j++) {
		if (!(up[j] > lo[j] + 1e-8) || obj[j] == 0) {
			continue;
		}
		if (!lp->isInteger(j)) {
			return true;
		}
		const double c = std::fabs(obj[j]);
		const double v = c * mult;
		if (v < 2.1e9 ? std::fabs(v - std::floor(v + 0.5)) > 1e-8 : std::fabs(c - std::floor(c + 0.5)) > 1e-8) {
			return false;
		}
	}
	return true;
}

// configure puts the call's settings on the model a search runs: our
// event handler, the bound refresh, elapsed time, the cutoff increment, the
// warm start and, for calls that may certify, best-first search.
void configure(CbcModel *m, lcg_cbc *s)
{
	StopHandler handler(&s->st);
	m->passInEventHandler(&handler); // cloned
	if (s->p->certify < COIN_DBL_MAX) {
		// The best bound is refreshed only every printFrequency nodes,
		// at a cost that grows with the tree: every node only when a
		// bound is to be certified.
		m->setPrintFrequency(1);
	}
	m->setUseElapsedTime(true);
	// Solve to 1e-9 (of the scaled objective) rather than CBC's 1e-5;
	// branchAndBound raises it for integral objectives.
	m->setCutoffIncrement(1e-9);
	if (s->p->start != nullptr && !s->preprocess && m->getNumCols() == s->ncols) {
		// The incumbent also sets CBC's cutoff and lets improvement
		// heuristics start from it.
		m->setBestSolution(s->p->start, s->ncols, s->startValue, true);
		// Without Clp's bound tightening in CbcModel::resolve (bit 30,
		// which CBC sets itself for odd objects) where the costs lie on
		// a lattice: the tightening also fixes columns by dominance (a
		// column in no binding row goes to the bound its cost prefers),
		// after which branchAndBound takes the gcd of the remaining
		// costs as the cutoff increment and cuts off at incumbent −
		// increment. A start with such a column at its other bound (the
		// last vertex, for other costs) is off that lattice, and the
		// cutoff excluded the optimum: binary a, b, c, d, row
		// 3a − b + c = 0, costs (−1, 0, 3, 2) from the start (0,0,0,1)
		// ended "optimal" at 2 instead of 0 (a and d fixed, increment 3;
		// TestWarmStartOffCostLattice). Only then: the tightening speeds
		// up searches (MIPLIB's own objectives took twice as long
		// without it), and costs off every lattice (gradients) get no
		// increment.
		if (latticeCosts(m)) {
			m->setMoreSpecialOptions(m->moreSpecialOptions() | 1073741824);
		}
	}
	// With a bound to certify, search best-first: that raises the global
	// bound fastest (CBC's default dives until it has an incumbent, which
	// leaves the bound at the root value for long). Unless the call asks
	// to dive for an improving point first (params.dive: the second
	// instance of concurrent weak separation's race policy, or -dive).
	if (s->p->certify < COIN_DBL_MAX && !s->p->dive) {
		CbcCompareObjective bestFirst;
		m->setNodeComparison(bestFirst);
	}
}


// generalIntegers reports whether m has an integer column whose bounds are
// not within [0, 1].
bool generalIntegers(const CbcModel *m)
{
	const OsiSolverInterface *lp = m->solver();
	const double *lo = lp->getColLower();
	const double *up = lp->getColUpper();
	for (int j = 0; j < lp->getNumCols(); j++) {
		if (lp->isInteger(j) && (lo[j] < 0 || up[j] > 1)) {
			return true;
		}
	}
	return false;
}

// noProbingStrengthening turns off the coefficient strengthening (row cuts
// type 2) of the probing generators that CbcMain1 put on m (it sets type
// 3, both kinds): with general integer columns and the cutoff of an
// incumbent it cuts off integer points. Six integer columns in [−2, 2],
// costs in thirds: "optimal" at −16.33 where −16.67 is feasible, also in
// standalone "cbc -preprocess off -solve", right with -probingCuts off
// (TestStandardGeneralIntegerProbing). The light search's probing makes
// disaggregation cuts only (type 1).
void noProbingStrengthening(CbcModel *m)
{
	for (int i = 0; i < m->numberCutGenerators(); i++) {
		CglProbing *probing = dynamic_cast<CglProbing *>(m->cutGenerator(i)->generator());
		if (probing != nullptr && (probing->rowCuts() & 2) != 0) {
			probing->setRowCuts(probing->rowCuts() & ~2);
		}
	}
}

// callback is CbcMain1's callback: at whereFrom 3 (just before
// branch-and-bound) it installs our event handler and settings on the
// model CbcMain1 searches, at 4 and 5 it records the outcome of the search
// and ends CbcMain1.
int callback(CbcModel *m, int whereFrom)
{
	lcg_cbc *s = current;
	if (s == nullptr) {
		return 0;
	}
	if (whereFrom == 4) {
		s->searched = true;
		s->haveSolution = m->bestSolution() != nullptr;
		s->nodes = m->getNodeCount();
		s->bestPossible = m->getBestPossibleObjValue();
		s->status = m->status();
		s->secondary = m->secondaryStatus();
		s->secondsReached = m->isSecondsLimitReached();
		if (s->preprocess) {
			return 0; // the solution is read after postprocessing
		}
		if (s->haveSolution && m->getNumCols() == s->ncols) {
			s->solution.assign(m->bestSolution(), m->bestSolution() + s->ncols);
		}
		return 1; // done: skip CbcMain1's reporting
	}
	if (whereFrom == 5) {
		if (s->haveSolution && m->bestSolution() != nullptr && m->getNumCols() == s->ncols) {
			s->solution.assign(m->bestSolution(), m->bestSolution() + s->ncols);
		}
		return 1;
	}
	if (whereFrom != 3) {
		return 0;
	}
	configure(m, s);
	if (generalIntegers(m)) {
		noProbingStrengthening(m);
	}
	if (!s->preprocess) {
		unlockMain(); // branch-and-bound: see mainBusy
	}
	return 0;
}

std::string number(double v)
{
	char buf[40];
	std::snprintf(buf, sizeof buf, "%.17g", v);
	return buf;
}

} // namespace

extern "C" {

// keepHeap stops glibc from returning freed memory to the system after
// every solve: each CbcMain1 call allocates and frees many large blocks,
// and unmapping and trimming them cost a quarter of a small solve.
__attribute__((constructor)) static void keepHeap()
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

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
		{
			// Go owns the signals: CLP's initialSolve would otherwise
			// install its own SIGINT handler for the length of the
			// solve, swallow the interrupt and end the LP unsolved
			// without our cancel flag set. (Every clone of base
			// inherits the option.)
			ClpSolve opts;
			opts.setSpecialOption(2, 1);
			s->base.setSolveOptions(opts);
		}
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
		// Every LP cloned from base (ours, CBC's, its heuristics') stops
		// on cancel and at the deadline.
		LPStop lpStop(&s->st);
		s->base.getModelPtr()->passInEventHandler(&lpStop); // cloned
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

void lcg_cbc_set_col_bounds(lcg_cbc *s, int j, double lo, double up)
{
	s->base.setColBounds(j, toCoin(lo), toCoin(up));
	s->boundsChanged = true;
}

void lcg_cbc_set_cuts(lcg_cbc *s, int nrows, const int *start, const int *index,
		const double *value, const double *lo, const double *up)
{
	s->err.clear();
	try {
		if (nrows <= 0) {
			s->pool.reset();
			return;
		}
		std::unique_ptr<PoolCuts> pool(new PoolCuts);
		pool->ncols = s->ncols;
		pool->start.assign(start, start + nrows + 1);
		pool->index.assign(index, index + start[nrows]);
		pool->value.assign(value, value + start[nrows]);
		pool->lo.resize(nrows);
		pool->up.resize(nrows);
		pool->scale.resize(nrows);
		for (int i = 0; i < nrows; i++) {
			pool->lo[i] = toCoin(lo[i]);
			pool->up[i] = toCoin(up[i]);
			double norm = 0;
			for (int k = start[i]; k < start[i + 1]; k++) {
				norm += value[k] * value[k];
			}
			pool->scale[i] = 1 / std::sqrt(std::fmax(norm, 1e-12));
		}
		s->pool = std::move(pool);
	} catch (std::bad_alloc &) {
		s->err = "storing the cut pool: out of memory";
	} catch (std::exception &e) {
		s->err = std::string("storing the cut pool: ") + e.what();
	} catch (...) {
		s->err = "storing the cut pool: unknown C++ exception";
	}
}

int lcg_cbc_test_hold_main(int hold)
{
	if (hold) {
		return mainBusy.exchange(true, std::memory_order_acquire) ? 0 : 1;
	}
	mainBusy.store(false, std::memory_order_release);
	return 1;
}

void lcg_cbc_cancel(lcg_cbc *s)
{
	s->st.cancel.store(1);
}

void lcg_cbc_clear_cancel(lcg_cbc *s)
{
	s->st.cancel.store(0);
}

// quiet silences a model and its solver.
static void quiet(CbcModel *m)
{
	m->setLogLevel(0);
	m->messageHandler()->setLogLevel(0);
	m->solver()->messageHandler()->setLogLevel(0);
}

// searchStandard runs CBC's standard solve path, as "cbc -solve" runs it,
// on the solved LP; callback records its outcome in s.
static void searchStandard(lcg_cbc *s, const OsiSolverInterface &lp)
{
	const lcg_cbc_params *p = s->p;
	StopState &st = s->st;
	CbcModel model(lp);
	quiet(&model);
	if (s->pool && p->pool && !p->preprocess) {
		// CbcMain1 keeps the generators of the model it is given (it
		// copies the model). Not with preprocessing, whose model has
		// other columns than the pool's.
		model.addCutGenerator(s->pool.get(), 1, "Pool");
	}
	MainGuard guard;
	int why;
	if (!lockMain(st, &why)) {
		st.reason = why; // no search: the LP bound stands
		return;
	}
	CbcSolverUsefulData data;
	data.noPrinting_ = true;
	data.useSignalHandler_ = false; // Go owns the signals
	CbcMain0(model, data);
	std::vector<std::string> args = {"lazycg", "-log", "0", "-slog", "0", "-timeMode", "elapsed",
		"-preprocess", p->preprocess ? "sos" : "off"};
	if (p->cutoff < COIN_DBL_MAX) {
		args.push_back("-cutoff");
		args.push_back(number(p->cutoff));
	}
	if (p->rel_gap > 0) {
		args.push_back("-ratioGap");
		args.push_back(number(p->rel_gap));
	}
	if (st.anyIncumbent) {
		// Any feasible point answers: heuristics (the feasibility pump and
		// its small branch-and-bound) stop at their first solution too.
		args.push_back("-maxSolutions");
		args.push_back("1");
	}
	if (p->threads > 1) {
		// 100 + N: N threads in CBC's deterministic mode (see
		// deterministicThreads).
		args.push_back("-threads");
		args.push_back(std::to_string(100 + p->threads));
	}
	double deadline = st.deadline.load();
	if (deadline > 0) {
		double left = deadline - CoinGetTimeOfDay();
		args.push_back("-seconds");
		args.push_back(number(left > 0 ? left : 0));
	}
	args.push_back("-solve");
	args.push_back("-quit");
	std::vector<const char *> argv;
	for (const std::string &a : args) {
		argv.push_back(a.c_str());
	}
	current = s;
	CbcMain1(static_cast<int>(argv.size()), argv.data(), model, callback, data);
	current = nullptr;
	if (!s->searched) {
		s->status = model.status();
		s->secondary = model.secondaryStatus();
		s->provenInfeasible = model.isProvenInfeasible();
	}
}

// deterministicThreads is CBC's thread mode for Threads > 1: deterministic
// parallel search, in which the threads solve batches of nodes that the main
// thread hands out and takes back in a fixed order. In CBC's default
// (opportunistic) mode the main thread recomputes the best bound from the
// tree and the nodes it believes in flight while the workers take and
// return nodes, and the incumbent is handed between thread models; a
// solve of lseu (optimum 1120) once ended as "optimal" at 1128 in a loaded
// CI run, which a proof cannot allow. The deterministic mode also makes a
// threaded solve repeatable (the same nodes, the same answer).
const int deterministicThreads = 1;

// rootPasses bounds the rounds of cut generation at the root of the light
// search.
const int rootPasses = 10;

// searchLight runs a light branch-and-cut on the solved LP: cuts at the
// root only (probing, Gomory, knapsack, clique, flow cover, MIR; at most
// rootPasses rounds), the rounding, greedy cover and equality, feasibility
// pump, coefficient diving and RINS heuristics, and strong branching.
static void searchLight(lcg_cbc *s, const OsiSolverInterface &lp)
{
	const lcg_cbc_params *p = s->p;
	StopState &st = s->st;
	CbcModel model(lp);
	quiet(&model);
	configure(&model, s);
	if (p->rel_gap > 0) {
		model.setAllowableFractionGap(p->rel_gap);
	}
	if (p->threads > 1) {
		model.setNumberThreads(p->threads);
		model.setThreadMode(deterministicThreads);
	}
	if (p->cutoff < COIN_DBL_MAX) {
		model.setCutoff(p->cutoff);
	}
	if (st.anyIncumbent) {
		model.setMaximumSolutions(1);
	}
	double deadline = st.deadline.load();
	if (deadline > 0) {
		double left = deadline - CoinGetTimeOfDay();
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
	model.addCutGenerator(&probing, -99, "Probing");
	model.addCutGenerator(&gomory, -99, "Gomory");
	model.addCutGenerator(&knapsack, -99, "Knapsack");
	model.addCutGenerator(&clique, -99, "Clique");
	model.addCutGenerator(&flow, -99, "FlowCover");
	model.addCutGenerator(&mir, -99, "MixedIntegerRounding2");
	if (s->pool && p->pool) {
		// At every node: the pool's inequalities are what the node LPs
		// lack (e.g. the cut polytope's triangle inequalities).
		model.addCutGenerator(s->pool.get(), 1, "Pool");
	}
	model.setMaximumCutPassesAtRoot(rootPasses);
	// The strategy adds the rounding heuristic and strong branching
	// settings, but no further cuts and no preprocessing.
	CbcStrategyDefault strategy(-1, 5, 5);
	strategy.setupPreProcessing(0);
	model.setStrategy(strategy);
	CbcHeuristicGreedyCover greedyCover(model);
	model.addHeuristic(&greedyCover);
	CbcHeuristicGreedyEquality greedyEquality(model);
	model.addHeuristic(&greedyEquality);
	CbcHeuristicFPump pump(model);
	pump.setMaximumPasses(20);
	model.addHeuristic(&pump);
	CbcHeuristicDiveCoefficient dive(model);
	model.addHeuristic(&dive);
	CbcHeuristicRINS rins(model);
	model.addHeuristic(&rins);
	model.branchAndBound();
	s->searched = true;
	s->haveSolution = model.bestSolution() != nullptr;
	if (s->haveSolution && model.getNumCols() == s->ncols) {
		s->solution.assign(model.bestSolution(), model.bestSolution() + s->ncols);
	}
	s->nodes = model.getNodeCount();
	s->bestPossible = model.getBestPossibleObjValue();
	s->status = model.status();
	s->secondary = model.secondaryStatus();
	s->secondsReached = model.isSecondsLimitReached();
}

// dualRows is the number of rows from which a warm LP re-solve after an
// objective change uses the dual simplex (see solve).
const int dualRows = 200;

// Warm or cold first LPs. A call re-solves its first LP from the last
// call's optimal basis (warm) until the running mean of warm re-solves
// exceeds coldSwitch times that of cold solves (and minSwitch seconds:
// below that timings are noise and the choice does not matter); from then
// on it solves afresh (cold), except that after probeEvery cold solves one
// call tries a warm re-solve again, which returns to warm re-solves if it
// costs at most warmBack times a cold solve and otherwise doubles
// probeEvery (from firstProbe). Every warm re-solve is cut at warmCut
// times the cold mean (at least minSwitch seconds) and then solved afresh,
// so a stale basis costs a bounded multiple of a cold solve. On most models
// warm re-solves are the faster (consecutive gradients differ little); on
// Martin's extended spanning tree formulation on 25 nodes (columns without
// upper bounds, many degenerate rows, which Clp's presolve removes in a
// cold solve) a warm re-solve took 2.8–9.3 s against 32–56 ms cold
// (docs/ORACLE.md, "Cold or warm first LPs"). The choice depends on
// timings, so two runs can differ where the two costs are close.
const double coldSwitch = 4, warmBack = 2, warmCut = 8, minSwitch = 0.01;
const int firstProbe = 16, maxProbe = 1 << 20;

// mean folds a new measurement into a running mean (weight ½ on the new
// one; the first measurement sets it).
void mean(double &m, double v)
{
	m = m < 0 ? v : 0.5 * (m + v);
}

// firstLP solves the call's first LP (lp, a fresh clone of the model with
// the call's objective) warm or cold as described above, and updates the
// timings and the mode.
int firstLP(lcg_cbc *s, std::unique_ptr<OsiSolverInterface> &lp, int mode)
{
	StopState &st = s->st;
	const bool probe = mode == 0 && s->coldMode && s->coldRun >= s->probeEvery;
	const bool warm = s->basis && (mode == 0 ? !s->coldMode || probe : mode != 2);
	double t0 = threadSeconds();
	double warmTook = -1, coldTook = -1;
	if (warm) {
		lp->setWarmStart(s->basis.get());
		// After bound changes: dual simplex. When only the objective
		// changed the basis stays primal feasible, but on models with
		// many rows the primal simplex stalls on degenerate pivots,
		// while on models with few rows and many columns each dual
		// pivot's ratio test over all columns is the cost: dual simplex
		// from dualRows rows on (docs/ORACLE.md, "Warm LP re-solves":
		// 10 re-solves of air04 in 0.28 and of disctom in 0.14 of the
		// primal simplex's CPU time; nw04, eil33-2 and eilB101 2–3×
		// slower with the dual simplex).
		lp->setHintParam(OsiDoDualInResolve, s->boundsChanged || lp->getNumRows() >= dualRows, OsiHintDo);
		if (mode == 3) {
			st.lpStopAt = t0; // tests: cut at the first iteration
		} else if (mode == 0 && s->coldLP > 0) {
			st.lpStopAt = t0 + std::fmax(warmCut * s->coldLP, minSwitch);
		}
		lp->resolve();
		st.lpStopAt = 0;
		lp->setHintParam(OsiDoDualInResolve, true, OsiHintTry);
		const double t1 = threadSeconds();
		warmTook = t1 - t0;
		int why;
		if (!lp->isProvenOptimal() && !lp->isProvenPrimalInfeasible() && !lp->isProvenDualInfeasible() &&
				!st.interrupted(&why)) {
			// Cut at its budget, or numerical trouble from the old
			// basis: start afresh, on a new copy of the model (the
			// interrupted one keeps the simplex's state).
			lp.reset(s->base.clone());
			lp->messageHandler()->setLogLevel(0);
			lp->initialSolve();
			coldTook = threadSeconds() - t1;
		}
	} else {
		lp->setWarmStart(nullptr);
		lp->initialSolve();
		coldTook = threadSeconds() - t0;
	}
	const int how = warmTook < 0 ? 2 : coldTook < 0 ? 1 : 3;
	int why;
	if (st.interrupted(&why) || !lp->isProvenOptimal()) {
		return how; // timings of a solve cut short say nothing
	}
	if (coldTook >= 0) {
		mean(s->coldLP, coldTook);
	}
	if (warmTook < 0) {
		s->coldRun += s->coldMode;
		return how;
	}
	if (probe) {
		s->warmLP = warmTook; // the mean from before the cold solves is stale
		s->coldRun = 0;
		if (coldTook < 0 && warmTook <= warmBack * s->coldLP) {
			s->coldMode = false;
		} else {
			s->probeEvery = std::min(2 * s->probeEvery, maxProbe);
		}
		return how;
	}
	mean(s->warmLP, warmTook);
	if (mode == 0 && s->coldLP > 0 && s->warmLP > coldSwitch * s->coldLP && s->warmLP > minSwitch) {
		s->coldMode = true;
		s->coldRun = 0;
		s->probeEvery = firstProbe;
	}
	return how;
}

static int solve(lcg_cbc *s, const lcg_cbc_params *p, lcg_cbc_result *r)
{
	StopState &st = s->st;
	st.anyIncumbent = p->improve >= COIN_DBL_MAX;
	st.improve = -COIN_DBL_MAX;
	if (p->improve > -COIN_DBL_MAX && p->improve < COIN_DBL_MAX) {
		st.improve = p->improve - 1e-9 * std::fmax(1.0, std::fabs(p->improve));
	}
	st.certify = p->certify;
	st.relGap = p->rel_gap;
	st.reason = -1;
	st.inTree = false;
	st.bound = -COIN_DBL_MAX;
	const double t0 = CoinGetTimeOfDay();
	st.deadline.store(p->time_limit > 0 ? t0 + p->time_limit : 0);

	r->found = 0;
	r->value = HUGE_VAL;
	r->bound = -HUGE_VAL;
	r->nodes = 0;
	r->outcome = LCG_OPTIMAL;
	r->first_lp = 0;

	s->base.setObjective(p->obj);
	std::unique_ptr<OsiSolverInterface> lp(s->base.clone());
	lp->messageHandler()->setLogLevel(0);
	r->first_lp = firstLP(s, lp, p->first_lp);
	s->boundsChanged = false;
	int why = -1;
	const bool interrupted = st.interrupted(&why);
	if (interrupted && !lp->isProvenOptimal()) {
		// The LP was cut short: nothing is known.
		r->outcome = why;
		return LCG_OK;
	}
	if (lp->isProvenPrimalInfeasible()) {
		r->outcome = LCG_INFEASIBLE;
		return LCG_OK;
	}
	if (lp->isProvenDualInfeasible()) {
		r->outcome = LCG_UNBOUNDED;
		return LCG_OK;
	}
	if (!lp->isProvenOptimal()) {
		s->err = "LP relaxation not solved to optimality (numerical difficulties or iteration limit)";
		return LCG_ERROR;
	}
	const double lpValue = lp->getObjValue() * lp->getObjSense();
	s->basis.reset(dynamic_cast<CoinWarmStartBasis *>(lp->getWarmStart()));
	r->bound = lpValue;
	st.bound = lpValue;
	if (p->cutoff < COIN_DBL_MAX && lpValue >= p->cutoff) {
		r->outcome = LCG_INFEASIBLE;
		return LCG_OK;
	}
	if (lpValue >= p->certify) {
		r->outcome = LCG_CERTIFIED;
		return LCG_OK;
	}
	double startValue = COIN_DBL_MAX;
	if (p->start != nullptr) {
		startValue = 0;
		for (int j = 0; j < s->ncols; j++) {
			startValue += p->obj[j] * p->start[j];
		}
		const bool attains = lpValue >= startValue - 1e-9 * std::fmax(1.0, std::fabs(startValue));
		if (attains || withinGap(startValue, lpValue, p->rel_gap)) {
			// The start solution attains the LP bound, or is within
			// the gap of it.
			std::memcpy(r->x, p->start, sizeof(double) * s->ncols);
			r->found = 1;
			r->value = startValue;
			r->bound = std::fmin(lpValue, startValue);
			r->outcome = attains ? LCG_OPTIMAL : LCG_GAP;
			return LCG_OK;
		}
	}
	if (integral(*lp)) {
		// The LP optimum is an integer solution, hence optimal.
		std::memcpy(r->x, lp->getColSolution(), sizeof(double) * s->ncols);
		r->found = 1;
		r->value = lpValue;
		r->outcome = LCG_OPTIMAL;
		return LCG_OK;
	}
	if (interrupted) {
		// The LP finished, but the call is out of time or canceled.
		r->outcome = why;
		return LCG_OK;
	}

	s->p = p;
	s->startValue = startValue;
	s->preprocess = p->preprocess != 0 && !p->light;
	s->searched = false;
	s->haveSolution = false;
	s->provenInfeasible = false;
	s->solution.clear();
	s->nodes = 0;
	s->bestPossible = -COIN_DBL_MAX;
	if (p->light) {
		searchLight(s, *lp);
	} else {
		searchStandard(s, *lp);
	}
	lp.reset();

	r->nodes = s->nodes;
	if (!s->solution.empty()) {
		std::memcpy(r->x, s->solution.data(), sizeof(double) * s->ncols);
		r->found = 1;
		r->value = 0;
		for (int j = 0; j < s->ncols; j++) {
			r->value += p->obj[j] * s->solution[j];
		}
	} else if (s->haveSolution) {
		s->err = "CBC's solution does not have the model's " + std::to_string(s->ncols) + " columns";
		return LCG_ERROR;
	}
	// After a cancel or the deadline, LPs may have been cut short and
	// CBC's final bound is not trusted: only the bound seen before counts.
	double b = st.bound;
	const int sec = s->secondary;
	if (st.reason < 0 && st.interrupted(&why)) {
		st.reason = why;
	}
	if (!s->searched && st.reason < 0) {
		// CbcMain1 ended before its search: its preprocessing or LP found
		// the model infeasible (under the cutoff), or it failed.
		if (s->provenInfeasible) {
			r->outcome = LCG_INFEASIBLE;
			r->bound = p->cutoff;
			return LCG_OK;
		}
		s->err = "CBC ended before its search (status " + std::to_string(s->status) + "/" +
			std::to_string(s->secondary) + ")";
		return LCG_ERROR;
	}
	if (st.reason < 0 && st.anyIncumbent && r->found) {
		st.reason = LCG_IMPROVING; // CBC stopped at its solution limit
	}
	if (st.reason >= 0) {
		r->outcome = st.reason;
		if (s->searched && st.reason != LCG_CANCELED && st.reason != LCG_TIMELIMIT) {
			b = std::fmax(b, s->bestPossible);
		}
	} else if (s->secondsReached || sec == 4) {
		r->outcome = LCG_TIMELIMIT;
	} else if (sec == 7) {
		r->outcome = LCG_UNBOUNDED;
		return LCG_OK;
	} else if (sec == 2) {
		r->outcome = LCG_GAP;
		b = std::fmax(b, s->bestPossible);
	} else if (s->status == 0) {
		// Search complete (secondary status 1: infeasible, possibly only
		// under the cutoff).
		if (!r->found) {
			r->outcome = LCG_INFEASIBLE;
			r->bound = p->cutoff;
			return LCG_OK;
		}
		r->outcome = LCG_OPTIMAL;
		b = r->value;
	} else {
		s->err = "CBC stopped with status " + std::to_string(s->status) + "/" + std::to_string(sec);
		return LCG_ERROR;
	}
	if (r->found && b > r->value) {
		b = r->value;
	}
	r->bound = b > -COIN_DBL_MAX ? b : -HUGE_VAL;
	return LCG_OK;
}

// integralBelow is the magnitude up to which an integral objective keeps
// scale 1: from 2^53 on every double is an integer, so integrality says
// nothing about the objective, and CLP aborts the process (an assertion in
// ClpSimplex::createRim on the re-solve of a later call) on a coefficient
// of magnitude 1e25 or more.
static const double integralBelow = 9007199254740992.0; // 2^53

// objectiveScale returns the power of two by which the objective is divided
// so that its largest coefficient is in [1, 2): CBC's tolerances (cutoff
// increment, integrality and feasibility tolerances) are absolute, so tiny
// or huge objectives would otherwise be solved to the wrong precision.
// Integral objectives below integralBelow keep scale 1 so that CBC still
// recognizes their integrality and prunes by whole units. Dividing by a
// power of two is exact (barring underflow of entries far below the
// largest, negligible next to it) and keeps the argmin.
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
	if (big == 0 || (integral && big < integralBelow)) {
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
		// Thresholds divided by a power of two may overflow to +-inf,
		// which keeps their meaning (off, or any incumbent).
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
	current = nullptr;
	return LCG_ERROR;
}

} // extern "C"
