package integrate

import "math"

// fdIter is the forward-dynamics Newton iteration of the α-methods (hht, hhtfd.go;
// genalpha, genalpha.go) on a system whose equations of motion are solved by a recursive
// forward-dynamics pass (dae.ForwardDynamicsSolver: the joint route of seed 002 Table 1)
// and that has no constraint rows or first-order states. Such a method's Newton matrix is
// c·M(q₁) plus damping and stiffness terms of order γh and βh² (hht: c = 1/(1+α), eq. 14
// of seed 004; genalpha: c = C = (1 − α_m)/(β(1 − α_f)), eq. 70 of seed 002), and its
// residual r is M(q₁)·(ã − x) with x = M(q₁)⁻¹(f + b) the forward-dynamics accelerations.
// The iteration takes the mass part c·M(q₁) at the iterate itself as its matrix, so that
// the increment −c⁻¹M(q₁)⁻¹ r is what the residual's own forward-dynamics pass already
// computes: an iteration costs one evaluation and nothing else, no factorization, no K_g,
// no preconditioner solve, no product with M. The terms it leaves out set its rate θ; the
// preconditioned Newton-Krylov iteration (massNewton with K_g) keeps them and costs a
// factorization besides its evaluations.
//
// The choice is by the measured rate. An attempt takes it while the last one that did
// contracted by fdRate or better at every increment; an increment that would contract
// less is not taken: the attempt factorizes massNewton's matrix at that iterate, whose
// rows it has (at the predicted one, if the first rate was poor), and goes on with it
// (leave), so a poor guess costs at most the one evaluation that measured it. After such
// an attempt, or a failed one, the next attempts take the factorized iteration, and the
// forward-dynamics one is tried again after fdRetry accepted steps, a wait that doubles
// while the tries keep failing (up to fdRetryMax) and is reset by one that passes.
type fdIter struct {
	allowed bool    // the system and the Newton settings admit it (allow)
	ok      bool    // the last attempt that took it contracted at fdRate or better
	wait    int     // accepted steps before it is tried again (when !ok)
	backoff int     // the wait after the next poor try
	next    bool    // the attempt being made takes it (begin sets on from it)
	on      bool    // the try under way takes it
	rate    float64 // the largest rate θ of the try's increments
	stale   bool    // tries ran since massNewton's last factorization: the next attempt without it factorizes
	steps   int     // accepted steps it took (tests)
	leaves  int     // tries it left for the factorized iteration (leave; tests)
	// u0, x0: the try's predicted unknowns and their rows x (keep), from which leave
	// starts the factorized iteration when the first rate is already poor.
	u0, x0 []float64
}

// fdRate is the rate θ an attempt of the forward-dynamics iteration must reach for the
// next one to take it too: one tenth, hhtChordRedoRate, hht's bound on its chord step.
const fdRate = hhtChordRedoRate

// fdRetry and fdRetryMax bound the number of accepted steps on the factorized iteration
// after which the forward-dynamics iteration is tried again (fdIter).
const (
	fdRetry    = 16
	fdRetryMax = 256
)

// fdIteration is a method's corrector with the forward-dynamics iteration: fdRestore
// makes the iterate whose rows factor takes when the try leaves (leave) the last one
// evaluated, or the predicted one when predicted (the unknowns u0 and rows x0 of keep),
// with the rows marked as the forward-dynamics pass's.
type fdIteration interface {
	newtonIteration
	fdRestore(predicted bool)
}

// allow sets whether the iteration may run on n unknowns, and trusts it for the first
// attempt.
func (f *fdIter) allow(yes bool, n int) {
	f.allowed, f.ok, f.backoff = yes, yes, fdRetry
	if yes {
		f.u0, f.x0 = make([]float64, n), make([]float64, n)
	}
}

// ready reports whether the next attempt takes the forward-dynamics iteration: allowed,
// trusted, and mn (the simplified matrix it leaves for) not replaced by its dense
// fallback.
func (f *fdIter) ready(mn *massNewton) bool { return f.allowed && f.ok && mn.active() }

// attempt runs an attempt of size h of p with the forward-dynamics iteration (a failed
// try is retried with a fresh factorization by newtonSolver.attempt) and judges it for
// the next.
func (f *fdIter) attempt(nw *newtonSolver, p newtonIteration, h float64) (usedFresh int, cause error) {
	f.next, f.rate, f.stale = true, 0, true
	usedFresh, cause = nw.attempt(p, h, false)
	f.next = false
	f.judge(usedFresh == 0 && cause == nil && f.rate <= fdRate)
	return usedFresh, cause
}

// begin sets whether the attempt's try takes the iteration (predict): a retry with a
// fresh matrix (freshJ) leaves it.
func (f *fdIter) begin(freshJ bool) { f.on = f.next && !freshJ }

// judge takes the verdict on a try: the next attempts keep the iteration when it passed,
// else wait for the backoff, which doubles.
func (f *fdIter) judge(passed bool) {
	if passed {
		f.backoff = fdRetry
		return
	}
	f.ok, f.wait = false, f.backoff
	f.backoff = min(2*f.backoff, fdRetryMax)
}

// accepted counts an accepted step toward the next try.
func (f *fdIter) accepted() {
	if f.on {
		f.steps++
	}
	if f.allowed && !f.ok {
		if f.wait--; f.wait <= 0 {
			f.ok = true
		}
	}
}

// keep records the unknowns u and their rows x at the try's predicted iterate (the
// residual of the monitor's iteration 0).
func (f *fdIter) keep(mon *newtonMonitor, u, x []float64) {
	if mon.iter == 0 {
		copy(f.u0, u)
		copy(f.x0, x)
	}
}

// rated reports whether the try's next increment has a rate θ: one against the attempt's
// previous increment.
func fdRated(mon *newtonMonitor) bool { return mon.iter >= 1 && mon.prev > 0 }

// poor records the rate θ of an increment of weighted norm norm against the previous one
// (fdRated) and reports whether it exceeds fdRate: the increment is then not taken, and
// the try leaves.
func (f *fdIter) poor(mon *newtonMonitor, norm float64) bool {
	rate := norm / mon.prev
	f.rate = math.Max(f.rate, rate)
	return rate > fdRate
}

// leave switches the try under way to the factorized iteration: it factorizes p's
// massNewton matrix at the iterate whose rows the last residual evaluated (K_g at its x),
// or back at the predicted one when the try's first rate was poor, so that the attempt is
// then the factorized iteration's own from its start (the first increment, taken before
// any rate was known, may have moved the iterate off along the stiff directions the
// iteration leaves out). The monitor measures rates afresh (newtonMonitor.restart: the
// last increment taken was of another iteration). It returns the factorization's error;
// on nil p's residual is that of the fresh matrix, from which the method's increment goes
// on.
func (f *fdIter) leave(nw *newtonSolver, p fdIteration) error {
	f.on = false
	f.leaves++
	p.fdRestore(nw.mon.iter == 1)
	if err := p.factor(); err != nil {
		return err
	}
	nw.factored()
	nw.mon.restart()
	return nil
}
