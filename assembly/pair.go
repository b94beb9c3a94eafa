package assembly

// pair.go: a scalar coordinate c(p) of a pair of bodies, with its gradient ∇c and Hessian
// ∇²c over the pair's coordinate vector p ⇒ their entries in rows of G, f and the Jacobians.
// cols[k] is the column of q of entry k of p, −1 where p reads a fixed body (the ground);
// a route sizes p at assembly (6 entries for two planar bodies, 14 for two spatial ones, 8
// for two rigid elements in natural coordinates).

// HessianRow is the row type of a route's Hessian over p: [6]float64 for planar pairs,
// [14]float64 for spatial ones, [8]float64 for natural-coordinate ones. A route with
// another pair size adds its row type here.
type HessianRow interface {
	~[6]float64 | ~[8]float64 | ~[14]float64
}

// AddScaled adds scale·g into dst at the pair's columns: a term w·∇c of a row of G, or a
// force −F ∇c.
func AddScaled(dst []float64, cols []int, scale float64, g []float64) {
	for k, col := range cols {
		if col >= 0 {
			dst[col] += scale * g[k]
		}
	}
}

// AddScaledRow adds scale·g into row out of a Target at the pair's columns.
func AddScaledRow(out TargetRow, cols []int, scale float64, g []float64) {
	out.AddAt(cols, scale, g)
}

// AddHessian adds scale·H into dst at the pair's columns (a term of ∂(Gᵀλ)/∂q).
// A row of H that is all zeros adds nothing to a sparse Target (AddAt adds no exact zero)
// and is skipped there without the row's look-up: a revolute joint's rows have 2 nonzeros
// in their 6×6 Hessians.
func AddHessian[R HessianRow](dst Target, cols []int, scale float64, h []R) {
	for a, ca := range cols {
		if ca < 0 {
			continue
		}
		var row [14]float64 // the largest HessianRow
		zero := true
		for b := range cols {
			row[b] = h[a][b]
			zero = zero && row[b] == 0
		}
		if zero && dst.dense == nil {
			continue
		}
		dst.Row(ca).AddAt(cols, scale, row[:len(cols)])
	}
}

// AddOuter adds scale·g gᵀ into dst at the pair's columns (a damper's ∂f/∂v).
func AddOuter(dst Target, cols []int, scale float64, g []float64) {
	for a, ca := range cols {
		if ca < 0 || g[a] == 0 {
			continue
		}
		out := dst.Row(ca)
		for b, cb := range cols {
			if cb >= 0 {
				out.Add(cb, scale*g[a]*g[b])
			}
		}
	}
}
