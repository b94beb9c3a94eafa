package integrate

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// firstOrder is the form K y' = φ(t, y), K constant and diagonal, that radau5 and bdf
// integrate: the equations of motion of a dae.System (semiExplicit) or a user's
// dae.LinearlyImplicit (implicitForm). The methods see only this; the mechanics-only
// parts (sparse evaluation, approximate Jacobian, naming by coordinate and constraint)
// stay on semiExplicit.
type firstOrder interface {
	dim() int
	mass(i int) float64 // K_ii
	index(i int) int    // differentiation index of variable i (1, 2 or 3)
	residual(dst []float64, t float64, y []float64)
	jacobian(J *mat.Dense, t float64, y []float64) // ∂φ/∂y
	fdEvals() int                                  // evaluations spent on finite differences so far
	pack(y []float64, st *State)
	unpack(st *State, t float64, y []float64)
	// coordBlocks says which components belong to a coordinate (StepControl.atolOf): the
	// first blocks·nq, component i to coordinate i mod nq.
	coordBlocks() (nq, blocks int)
}

var (
	_ firstOrder = (*semiExplicit)(nil)
	_ firstOrder = (*implicitForm)(nil)
)

func (s *semiExplicit) dim() int { return s.n }

// coordBlocks: q, v and a are indexed by coordinate; λ and μ are not.
func (s *semiExplicit) coordBlocks() (int, int) { return s.nq, 3 }

func (s *semiExplicit) mass(i int) float64 {
	if s.differential(i) {
		return 1
	}
	return 0
}

// implicitForm is a dae.LinearlyImplicit as radau5 and bdf consume it. The State of
// such a run holds y in Q (V, A and Lambda are empty). ∂φ/∂y is the system's
// (dae.LinearlyImplicitJacobian) or central differences of φ, column by column with
// step dae.FDStep(y_j). It does not allocate after newImplicitForm.
type implicitForm struct {
	sys   dae.LinearlyImplicit
	an    dae.LinearlyImplicitJacobian // nil: finite differences
	n     int
	k     []float64
	idx   []int
	yp    []float64 // perturbed y
	fp    []float64 // φ at y ± δ
	fm    []float64
	evals int
}

func newImplicitForm(sys dae.LinearlyImplicit) *implicitForm {
	n := sys.Dim()
	f := &implicitForm{sys: sys, n: n, k: make([]float64, n), idx: make([]int, n),
		yp: make([]float64, n), fp: make([]float64, n), fm: make([]float64, n)}
	f.an, _ = sys.(dae.LinearlyImplicitJacobian)
	sys.MassDiagonal(f.k)
	sys.Indices(f.idx)
	return f
}

func (f *implicitForm) dim() int                    { return f.n }
func (f *implicitForm) mass(i int) float64          { return f.k[i] }
func (f *implicitForm) index(i int) int             { return f.idx[i] }
func (f *implicitForm) fdEvals() int                { return f.evals }
func (f *implicitForm) coordBlocks() (int, int)     { return f.n, 1 }
func (f *implicitForm) pack(y []float64, st *State) { copy(y, st.Q) }

func (f *implicitForm) unpack(st *State, t float64, y []float64) {
	st.T = t
	copy(st.Q, y)
}

func (f *implicitForm) residual(dst []float64, t float64, y []float64) { f.sys.Rhs(dst, t, y) }

func (f *implicitForm) jacobian(J *mat.Dense, t float64, y []float64) {
	if f.an != nil {
		f.an.RhsJacobian(J, t, y)
		return
	}
	copy(f.yp, y)
	for j := range f.n {
		h := dae.FDStep(y[j])
		f.yp[j] = y[j] + h
		f.sys.Rhs(f.fp, t, f.yp)
		f.yp[j] = y[j] - h
		f.sys.Rhs(f.fm, t, f.yp)
		f.yp[j] = y[j]
		for i := range f.n {
			J.Set(i, j, (f.fp[i]-f.fm[i])/(2*h))
		}
	}
	f.evals += 2 * f.n
}

// residualNamed names component i of a residual or error vector of an implicitForm run.
func (f *implicitForm) component(i int, x float64, what string) Residual {
	return Residual{Block: what, Index: i, Value: x, Owner: dae.VariableName(f.sys, i)}
}

// ImplicitMethod is a Method that also integrates a dae.LinearlyImplicit system
// K y' = φ(t, y) (radau5 and bdf; Entry.Implicit). InitImplicit checks that (y0, yp0) is
// consistent at t0 (dae.CheckLinearlyImplicit to 1e-8 relative) and starts the run;
// Current().Q then holds y (V, A and Lambda are empty).
type ImplicitMethod interface {
	Method
	InitImplicit(sys dae.LinearlyImplicit, t0 float64, y0, yp0 []float64, ctl StepControl) error
}

// implicitStartTol is the relative residual of K y'₀ = φ(t₀, y₀) a start may leave: the
// tolerance the mechanical starts are held to (seed 002 eq. 17, radau5 and bdf Init).
const implicitStartTol = 1e-8

// ImplicitMethods returns the names of the registered methods that take a
// dae.LinearlyImplicit system.
func ImplicitMethods() []string {
	var names []string
	for _, e := range registry() {
		if e.Implicit {
			names = append(names, e.Name)
		}
	}
	return names
}

// implicitRefusal is the error of a method that cannot take a dae.LinearlyImplicit system.
func implicitRefusal(name string) error {
	return fmt.Errorf("integrate: %s does not integrate a linearly implicit system K y' = φ(t, y) (dae.LinearlyImplicit); methods that do: %s",
		name, strings.Join(ImplicitMethods(), ", "))
}

// SolveImplicit integrates the linearly implicit system sys from (t0, y0, yp0) to tEnd
// with m (named name), as Solve does a dae.System: the Solution's Q samples and Final.Q
// hold y; it has no constraint residuals (MaxResidual stays zero). A method that does not
// implement ImplicitMethod is refused with an error naming the capability and the
// methods that have it.
func SolveImplicit(m Method, name string, sys dae.LinearlyImplicit, t0 float64, y0, yp0 []float64, tEnd float64, opt SolveOptions) (*Solution, error) {
	im, ok := m.(ImplicitMethod)
	if !ok {
		return nil, implicitRefusal(name)
	}
	init := func() error { return im.InitImplicit(sys, t0, y0, yp0, opt.Control) }
	return drive(m, name, t0, tEnd, opt, init, nil)
}
