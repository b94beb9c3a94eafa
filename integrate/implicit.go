package integrate

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// firstOrder is the form K y' = φ(t, y), K constant and diagonal, that radau5 and bdf
// integrate (a general K(t, y) comes only with implicitForm, see there): the equations of motion of a dae.System (semiExplicit) or a user's
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
// step dae.FDStep(y_j). A full or state-dependent K (dae.ImplicitMass) is the general
// case: mass(i) is then 0 and the methods take K from massMul and the Newton matrices'
// part ∂(K y')/∂y from newtonJacobian. It does not allocate after newImplicitForm.
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

	gm *implicitMass // the general K (nil: K = diag(k))
	// diffVar marks the differential variables (a nonzero column of K(t₀, y₀)), diffRow
	// the differential equations (a nonzero row): bdf's error norm and radau5's error
	// estimate take only these.
	diffVar, diffRow []bool
}

// implicitMass is the general K(t, y) of a dae.ImplicitMass system with its scratch.
type implicitMass struct {
	sys    dae.ImplicitMass
	an     dae.ImplicitMassDerivative // nil: differences (fd)
	fd     *dae.MassProductFD
	varies bool       // K depends on t or y
	K      *mat.Dense // K itself when constant, else the last evaluation
	dK     *mat.Dense // ∂(K z)/∂y
}

// newImplicitForm returns the form of sys, with the differential pattern of K(t0, y0).
func newImplicitForm(sys dae.LinearlyImplicit, t0 float64, y0 []float64) *implicitForm {
	n := sys.Dim()
	f := &implicitForm{sys: sys, n: n, k: make([]float64, n), idx: make([]int, n),
		yp: make([]float64, n), fp: make([]float64, n), fm: make([]float64, n),
		diffVar: make([]bool, n), diffRow: make([]bool, n)}
	f.an, _ = sys.(dae.LinearlyImplicitJacobian)
	sys.Indices(f.idx)
	K := mat.NewDense(n, n, nil)
	dae.MassOf(K, sys, t0, y0, f.fp)
	if m := dae.AsImplicitMass(sys); m != nil {
		f.gm = &implicitMass{sys: m, varies: !m.ConstantMass(), K: K, dK: mat.NewDense(n, n, nil)}
		f.gm.an, _ = sys.(dae.ImplicitMassDerivative)
		if f.gm.varies && f.gm.an == nil {
			f.gm.fd = dae.NewMassProductFD(m, n)
		}
	} else {
		sys.MassDiagonal(f.k)
	}
	for i := range n {
		for j, x := range K.RawRowView(i) {
			if x != 0 {
				f.diffRow[i], f.diffVar[j] = true, true
			}
		}
	}
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

// massAt evaluates the general K at (t, y) (once per run when constant) and returns it;
// the matrix is overwritten by the next evaluation.
func (f *implicitForm) massAt(t float64, y []float64) *mat.Dense {
	if f.gm.varies {
		f.gm.sys.Mass(f.gm.K, t, y)
	}
	return f.gm.K
}

// massMul writes K(t, y) z into dst (diagonal or general K).
func (f *implicitForm) massMul(dst []float64, t float64, y, z []float64) {
	if f.gm == nil {
		for i, k := range f.k {
			dst[i] = k * z[i]
		}
		return
	}
	K := f.massAt(t, y)
	for i := range dst {
		var s float64
		for j, k := range K.RawRowView(i) {
			s += k * z[j]
		}
		dst[i] = s
	}
}

// newtonJacobian writes ∂φ/∂y − ∂(K(t, y) z)/∂y at (t, y) into J, z the current y': the
// part of the Newton matrix besides the multiple of K (the second term vanishes for a
// constant K). Mass evaluations for differences count as fdEvals.
func (f *implicitForm) newtonJacobian(J *mat.Dense, t float64, y, z []float64) {
	f.jacobian(J, t, y)
	if f.gm == nil || !f.gm.varies {
		return
	}
	if f.gm.an != nil {
		f.gm.an.MassProductJacobian(f.gm.dK, t, y, z)
	} else {
		f.evals += f.gm.fd.Jacobian(f.gm.dK, t, y, z)
	}
	J.Sub(J, f.gm.dK)
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
