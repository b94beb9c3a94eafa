package planar

import (
	"math"
	"slices"

	"linkage/assembly"
)

// revrows.go: the rows of a revolute joint, g = (w_x d_x − c0_x, w_y d_y − c0_y) over one
// pair, written into the values of the System's own patterns by a plan made once: the
// pair's body columns and marker points, the rows' weights and constants, and the value
// positions of G's eight nonzeros and of the Hessians' two, so that an evaluation reads no
// row, term or pair and asks the target for no positions. It makes the operations of the
// generic loop (constraint.go) on the same numbers: each value is the same to the bit
// (TestRevoluteRowsPlan). Any row it does not cover (other joints, drives, a target of
// another pattern, a dense matrix) goes through the generic loop.

// revJoint is a revolute joint's two rows, r (d_x) and r+1 (d_y), resolved for the plan.
type revJoint struct {
	row        int32      // the row of d_x; d_y's follows
	colI, colJ int32      // column of each body's x in q (−1: the ground)
	si, sj     Vec        // the markers' points in the bodies' frames
	w, c0      [2]float64 // the rows' weight and constant, d_x then d_y
	// gpos: positions in G's values of row r at x_I, θ_I, x_J, θ_J, then row r+1 at y_I,
	// θ_I, y_J, θ_J (assembly.PosGround: a ground column, nothing to add).
	gpos [8]int32
	// packed: the position of row r's x_I when both rows' six entries are the twelve
	// values from there on, in p order (both bodies moving, body I's columns first, the
	// rows' entries those of the pair alone: a chain's joints); −1 otherwise.
	packed int32
	hpos   [2]int32 // positions in the coupling values of (θ_I, θ_I) and (θ_J, θ_J)
}

// revPlan lists the revolute joints whose rows the plan writes, in the order of their
// rows, grouped in runs of joints whose rows follow one another.
type revPlan struct {
	joints []revJoint
	runs   []revRun
}

// revRun is joints[j0:j1] of a plan, the rows row, row+1, … of the constraints.
type revRun struct {
	row, j0, j1 int32
}

// joints returns the run's joints in js (revPlan.joints).
func (u revRun) joints(js []revJoint) []revJoint { return js[u.j0:u.j1] }

// end returns the row after the run.
func (u revRun) end() int { return int(u.row) + 2*int(u.j1-u.j0) }

// revolutePlan returns the plan, made on the first call (it builds the patterns).
func (s *System) revolutePlan() *revPlan {
	s.revOnce.Do(func() { s.rev = s.buildRevolutePlan() })
	return &s.rev
}

// buildRevolutePlan resolves every pair of consecutive rows d_x, d_y of one pair with
// constant weights and no drive (a revolute joint's rows) whose entries all lie in the
// patterns (a missing one is left to the generic loop, which reports a nonzero there).
func (s *System) buildRevolutePlan() revPlan {
	gt, ct := s.ConstraintTarget(nil), s.CouplingTarget(nil)
	var p revPlan
	for r := 0; r+1 < len(s.rows); r++ {
		a, b := &s.rows[r], &s.rows[r+1]
		if !separationRow(a, coordDx) || !separationRow(b, coordDy) || a.Terms[0].Pair != b.Terms[0].Pair {
			continue
		}
		k := a.Terms[0].Pair
		_, px := gt.TermPositions(r, 0)
		_, py := gt.TermPositions(r+1, 0)
		_, blk := ct.PairBlockPositions(k, 6)
		if len(px) != 6 || len(py) != 6 || len(blk) != 36 {
			continue
		}
		pr := &s.pairs[k]
		j := revJoint{row: int32(r), colI: int32(pr.col[0]), colJ: int32(pr.col[3]), si: pr.si, sj: pr.sj,
			w: [2]float64{a.Terms[0].W, b.Terms[0].W}, c0: [2]float64{a.C0, b.C0},
			gpos: [8]int32{px[0], px[2], px[3], px[5], py[1], py[2], py[4], py[5]},
			hpos: [2]int32{blk[2*6+2], blk[5*6+5]}}
		j.packed = packedPositions(px, py)
		if slices.Contains(j.gpos[:], assembly.PosMissing) || slices.Contains(j.hpos[:], assembly.PosMissing) {
			continue
		}
		if n := len(p.runs); n > 0 && p.runs[n-1].end() == r {
			p.runs[n-1].j1++
		} else {
			p.runs = append(p.runs, revRun{row: int32(r), j0: int32(len(p.joints)), j1: int32(len(p.joints) + 1)})
		}
		p.joints = append(p.joints, j)
		r++
	}
	return p
}

// packedPositions returns px[0] when px and py are the twelve positions from px[0] on,
// else −1 (revJoint.packed).
func packedPositions(px, py []int32) int32 {
	for k := range 6 {
		if px[k] != px[0]+int32(k) || py[k] != px[0]+int32(6+k) {
			return -1
		}
	}
	return px[0]
}

// separationRow reports whether rw is w·c − c0 with c of kind, a constant weight and no drive.
func separationRow(rw *row, kind coordKind) bool {
	return rw.N == 1 && rw.Terms[0].Coord == kind && rw.Terms[0].Kind == assembly.WeightConst && rw.Drive == nil && !rw.Trig
}

// kin returns a_I = (aix, aiy), a_J = (ajx, ajy) and the separation d = (dx, dy) at q:
// the numbers of pairRef.kinPoints (the same operations, on scalars, which stay in
// registers where kinPoints' Vec arrays go through memory), the bodies' sines and cosines
// through tr (bodyTrig.sincos, its test written out here: on a chain body I is the body
// held, and a call spills every register).
func (j *revJoint) kin(q []float64, tr *bodyTrig) (aix, aiy, ajx, ajy, dx, dy float64) {
	var rix, riy, thI, rjx, rjy, thJ float64
	ci, cj := int(j.colI), int(j.colJ)
	if ci >= 0 {
		b := (*[3]float64)(q[ci : ci+3])
		rix, riy, thI = b[0], b[1], b[2]
	}
	if cj >= 0 {
		b := (*[3]float64)(q[cj : cj+3])
		rjx, rjy, thJ = b[0], b[1], b[2]
	}
	if tr.key != ci+2 {
		tr.sn, tr.cs = math.Sincos(thI)
		tr.key = ci + 2
	}
	snI, csI := tr.sn, tr.cs
	if tr.key != cj+2 {
		tr.sn, tr.cs = math.Sincos(thJ)
		tr.key = cj + 2
	}
	snJ, csJ := tr.sn, tr.cs
	aix, aiy = csI*j.si[0]-snI*j.si[1], snI*j.si[0]+csI*j.si[1]
	ajx, ajy = csJ*j.sj[0]-snJ*j.sj[1], snJ*j.sj[0]+csJ*j.sj[1]
	return aix, aiy, ajx, ajy, rjx + ajx - rix - aix, rjy + ajy - riy - aiy
}

// values writes the rows' g = w d_c − c0 (the generic loop's −c0 + w d_c) into g.
func (j *revJoint) values(g []float64, dx, dy float64) {
	gx := -j.c0[0]
	gx += j.w[0] * dx
	gy := -j.c0[1]
	gy += j.w[1] * dy
	g = g[j.row : j.row+2]
	g[0], g[1] = gx, gy
}

// addGradients adds both rows' w ∇d_c into G's values, as addSeparationGradient: −w at
// x_I (y_I), −w b_I[c] at θ_I, w at x_J (y_J), w b_J[c] at θ_J, with b = (−a_y, a_x).
func (j *revJoint) addGradients(vals []float64, aix, aiy, ajx, ajy float64) {
	if j.packed >= 0 {
		b := int(j.packed)
		v := (*[12]float64)(vals[b : b+12])
		w := j.w[0]
		v[0] += w * -1
		v[2] += w * -(-aiy)
		v[3] += w * 1
		v[5] += w * (-ajy)
		w = j.w[1]
		v[7] += w * -1
		v[8] += w * -aix
		v[10] += w * 1
		v[11] += w * ajx
		return
	}
	p := &j.gpos
	w := j.w[0]
	addAtValue(vals, p[0], w*-1)
	addAtValue(vals, p[1], w*-(-aiy))
	addAtValue(vals, p[2], w*1)
	addAtValue(vals, p[3], w*(-ajy))
	w = j.w[1]
	addAtValue(vals, p[4], w*-1)
	addAtValue(vals, p[5], w*-aix)
	addAtValue(vals, p[6], w*1)
	addAtValue(vals, p[7], w*ajx)
}

// gammas writes the rows' γ = −w vᵀ∇²d_c v (quadOf's sums) into gamma, for the
// bodies' angular rates wI, wJ: ∇²d_c is a_I[c] at (θ_I, θ_I) and −a_J[c] at (θ_J, θ_J).
func (j *revJoint) gammas(gamma []float64, aix, aiy, ajx, ajy, wI, wJ float64) {
	gamma = gamma[j.row : j.row+2]
	gamma[0] = j.gamma(0, aix, ajx, wI, wJ)
	gamma[1] = j.gamma(1, aiy, ajy, wI, wJ)
}

// gamma returns row c's γ from a_I[c], a_J[c].
func (j *revJoint) gamma(c int, ai, aj, wI, wJ float64) float64 {
	var s float64
	if wI != 0 {
		s += wI * (ai * wI)
	}
	if wJ != 0 {
		s += wJ * (-aj * wJ)
	}
	gm := 0.0
	gm -= j.w[c] * s
	return gm
}

// rates returns the bodies' angular rates in v (0 for the ground).
func (j *revJoint) rates(v []float64) (wI, wJ float64) {
	if j.colI >= 0 {
		wI = v[j.colI+2]
	}
	if j.colJ >= 0 {
		wJ = v[j.colJ+2]
	}
	return wI, wJ
}

// addJacobianDerivative adds both rows' w (∇²d_c w_p)ᵀ into G's values for the bodies'
// angular rates wI, wJ in w: with ∇²d_c = diag(a_I[c], −a_J[c]) over (θ_I, θ_J), the
// entries x_θI = a_I[c] wI + 0·wJ and x_θJ = 0·wI − a_J[c] wJ, summed as
// jacobianDerivativeRow sums them over the support (0·w kept: it is a NaN for an infinite
// w), times w, at θ_I and θ_J. The row's other four entries, w·0, which AddTermGradient
// adds, change no value (slots.go) and are left out.
func (j *revJoint) addJacobianDerivative(vals []float64, aix, aiy, ajx, ajy, wI, wJ float64) {
	var hI0, hJ0, hI1, hJ1 float64
	hI0 += aix * wI
	hI0 += 0 * wJ
	hJ0 += 0 * wI
	hJ0 += -ajx * wJ
	hI1 += aiy * wI
	hI1 += 0 * wJ
	hJ1 += 0 * wI
	hJ1 += -ajy * wJ
	p := &j.gpos
	addAtValue(vals, p[1], j.w[0]*hI0)
	addAtValue(vals, p[3], j.w[0]*hJ0)
	addAtValue(vals, p[5], j.w[1]*hI1)
	addAtValue(vals, p[7], j.w[1]*hJ1)
}

// addHessians adds λ_r w ∇²d_c of both rows (lambda = λ_r, λ_{r+1}) into the coupling
// values, as addSeparationHessian: λ w a_I[c] at (θ_I, θ_I), −λ w a_J[c] at (θ_J, θ_J),
// exact zeros left out.
func (j *revJoint) addHessians(vals []float64, lambda []float64, aix, aiy, ajx, ajy float64) {
	j.addHessian(vals, lambda[0], 0, aix, ajx)
	j.addHessian(vals, lambda[1], 1, aiy, ajy)
}

// addHessian adds row c's λ w ∇²d_c from a_I[c], a_J[c].
func (j *revJoint) addHessian(vals []float64, lambda float64, c int, ai, aj float64) {
	if lambda == 0 {
		return
	}
	w := lambda * j.w[c]
	if ai != 0 {
		addAtValue(vals, j.hpos[0], w*ai)
	}
	if -aj != 0 {
		addAtValue(vals, j.hpos[1], w*-aj)
	}
}

// addAtValue adds y at position p of vals when p is a value (not the ground).
func addAtValue(vals []float64, p int32, y float64) {
	if p >= 0 {
		vals[p] += y
	}
}
