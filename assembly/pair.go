package assembly

import "math/bits"

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

// AddHessian adds scale·H into dst at the columns cols of pair k (a term of ∂(Gᵀλ)/∂q), at
// the positions of the pair's block found once when dst holds them, else by look-ups.
// A row of H that is all zeros adds nothing to a sparse Target (AddAt adds no exact zero)
// and is skipped there: a revolute joint's rows have 2 nonzeros in their 6×6 Hessians.
func AddHessian[R HessianRow](dst Target, k int, cols []int, scale float64, h []R) {
	AddHessianOver(dst, k, cols, scale, h, 1<<len(cols)-1)
}

// AddHessianOver is AddHessian for an H that is exactly zero outside the rows and columns
// in the bit set sup: a sparse Target with the pair's positions reads only sup×sup (a
// spherical joint's rows curve in 8 of a spatial pair's 14 entries), which adds the same
// values, since the additions it leaves out are of exact zeros. The caller guarantees the
// zeros; a dense Target reads all of H, so that dae.CheckSparse, comparing both paths,
// finds an H that breaks them.
func AddHessianOver[R HessianRow](dst Target, k int, cols []int, scale float64, h []R, sup uint16) {
	n := len(cols)
	if blk := dst.slots.block(k, n); blk != nil {
		for ra := sup; ra != 0; ra &= ra - 1 {
			a := bits.TrailingZeros16(ra)
			if cols[a] < 0 || zeroOver(&h[a], sup) {
				continue
			}
			pos := blk[a*n : (a+1)*n]
			for rb := sup; rb != 0; rb &= rb - 1 {
				b := bits.TrailingZeros16(rb)
				if y := scale * h[a][b]; pos[b] >= 0 {
					dst.vals[pos[b]] += y
				} else if pos[b] == slotMissing && y != 0 {
					outside(cols[a], cols[b], y)
				}
			}
		}
		return
	}
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
		dst.Row(ca).AddAt(cols, scale, row[:n])
	}
}

// AddOuter adds scale·g gᵀ into dst at the columns cols of pair k (a damper's ∂f/∂v), at
// the positions of the pair's block found once when dst holds them, else by look-ups.
func AddOuter(dst Target, k int, cols []int, scale float64, g []float64) {
	n := len(cols)
	blk := dst.slots.block(k, n)
	for a, ca := range cols {
		if ca < 0 || g[a] == 0 {
			continue
		}
		if blk != nil {
			pos := blk[a*n : (a+1)*n]
			for b, cb := range cols {
				if cb >= 0 {
					addPos(dst.vals, pos[b], ca, cb, scale*g[a]*g[b])
				}
			}
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

// addPos adds x at position p (entry (i, j)) as TargetRow.Add does: zeros included, an
// entry the pattern lacks only if x is zero.
func addPos(vals []float64, p int32, i, j int, x float64) {
	if p >= 0 {
		vals[p] += x
	} else if x != 0 {
		outside(i, j, x)
	}
}

// zeroOver reports whether row is zero at every entry in the bit set sup: such a row of a
// Hessian adds nothing (a revolute joint's rows have 2 nonzeros in 6×6).
func zeroOver[R HessianRow](row *R, sup uint16) bool {
	for rb := sup; rb != 0; rb &= rb - 1 {
		if (*row)[bits.TrailingZeros16(rb)] != 0 {
			return false
		}
	}
	return true
}
