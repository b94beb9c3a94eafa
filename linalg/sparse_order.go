package linalg

import (
	"math"
	"slices"
)

// Node kinds of the quotient graph of minimum-degree ordering.
const (
	qgVariable = iota // not yet eliminated, representative of its supervariable
	qgElement         // eliminated; stands for the clique L_e of its uneliminated neighbours
	qgAbsorbed        // element whose clique is contained in a newer element's
	qgMerged          // variable merged into an indistinguishable one (its supervariable)
	qgDense           // removed before ordering and placed last
)

// quotientGraph is the elimination graph of a symmetric matrix in the compact form of
// minimum-degree orderings (George & Liu 1989; Amestoy, Davis & Duff 1996, sec. 2): after
// pivots have been eliminated, each eliminated node e is an element whose neighbour list
// L_e is the clique it created, and each variable i keeps the original neighbours A_i not
// yet covered by an element and the list E_i of elements it belongs to. The graph never
// grows beyond the original pattern plus one list per element, while the explicit
// elimination graph would store all fill-in.
type quotientGraph struct {
	kind  []int8
	vars  [][]int // A_i: variable neighbours of variable i (stale entries are skipped)
	elems [][]int // E_i: elements adjacent to variable i
	lset  [][]int // L_e: variables of element e
	lw    []int   // |L_e| counted with supervariable weights
	nv    []int   // weight of supervariable i (number of original nodes it stands for)
	deg   []int   // approximate external degree of variable i

	chainNext, chainTail []int // members of each supervariable, as a linked list

	head, next, prev []int // degree lists: head[d] starts the list of variables of degree d
	mindeg           int

	mark, wmark []int // stamps: mark for L_p and set comparisons, wmark for w
	stamp       int
	w           []int // w[e] = |L_e \ L_p| during the update after pivot p
	hhead, hnxt []int // supervariable hash buckets
	hash        []int
}

// minimumDegree returns a fill-reducing elimination order for the symmetric graph adj
// (adj[i] lists the neighbours of node i, without i and without repetition): order[k] is
// the node eliminated k-th. It is the approximate minimum degree algorithm (AMD) of
// Amestoy, Davis & Duff, "An approximate minimum degree ordering algorithm", SIAM J.
// Matrix Anal. Appl. 17 (1996), written from that description on an explicit quotient
// graph (Go slices per node rather than AMD's single workspace):
//
//   - pivot: a variable p of least approximate external degree; its element clique is
//     L_p = (A_p ∪ ⋃_{e∈E_p} L_e) \ {p}, and the elements of E_p are absorbed into p;
//   - degree update for i ∈ L_p, with |·| counting supervariable weights and
//     w(e) = |L_e \ L_p| found by one scan over the elements adjacent to L_p:
//     d_i = min(n_left − |i|, d_i^old + |L_p \ i|, |A_i \ i| + |L_p \ i| + Σ_{e∈E_i\p} w(e));
//   - aggressive absorption: an element with w(e) = 0 lies inside L_p and is absorbed;
//   - supervariables: variables of L_p with identical A_i and E_i (found by hashing) are
//     merged and from then on eliminated together (mass elimination); indistinguishable
//     nodes of the original graph (a body's coordinates, a joint's rows) are merged
//     before the first pivot (graph compression, C. Ashcraft, "Compressed graphs and
//     the minimum degree algorithm", SIAM J. Sci. Comput. 16, 1995);
//   - dense rows (degree above max(16, 10√n)) are removed at the start and ordered last.
//
// AMD's final postordering of the assembly tree is left to the caller: NewSparseKKT
// postorders the elimination tree, which keeps the fill and improves memory locality.
func minimumDegree(adj [][]int) []int {
	n := len(adj)
	order := make([]int, 0, n)
	if n == 0 {
		return order
	}
	g := newQuotientGraph(adj)
	live := 0 // weight of the variables still to eliminate
	for i := range n {
		if g.kind[i] == qgVariable {
			live += g.nv[i]
		}
	}
	for eliminated := 0; eliminated < live; {
		p := g.popMin()
		lp, lpw := g.eliminate(p)
		for v := p; v >= 0; v = g.chainNext[v] {
			order = append(order, v)
		}
		eliminated += g.nv[p]
		g.updateDegrees(p, lp, lpw, live-eliminated)
		g.mergeSupervariables(lp)
		for _, v := range lp {
			if g.kind[v] == qgVariable {
				g.insert(v)
			}
		}
	}
	for i := range n {
		if g.kind[i] == qgDense {
			order = append(order, i)
		}
	}
	return order
}

// newQuotientGraph copies adj into a quotient graph without elements, removes dense nodes
// and fills the degree lists.
func newQuotientGraph(adj [][]int) *quotientGraph {
	n := len(adj)
	g := &quotientGraph{
		kind: make([]int8, n), vars: make([][]int, n), elems: make([][]int, n),
		lset: make([][]int, n), lw: make([]int, n), nv: make([]int, n), deg: make([]int, n),
		chainNext: make([]int, n), chainTail: make([]int, n),
		head: make([]int, n+1), next: make([]int, n), prev: make([]int, n),
		mark: make([]int, n), wmark: make([]int, n), w: make([]int, n),
		hhead: make([]int, n), hnxt: make([]int, n), hash: make([]int, n),
	}
	// AMD's threshold: a node adjacent to more than 10√n others (a ground-like hub) would
	// make every degree update scan it; eliminating it last costs at most one dense row.
	dense := max(16, int(10*math.Sqrt(float64(n))))
	for i := range n {
		g.vars[i] = slices.Clone(adj[i])
		g.nv[i], g.chainNext[i], g.chainTail[i] = 1, -1, i
		g.hhead[i], g.head[i] = -1, -1
		if len(adj[i]) > dense {
			g.kind[i] = qgDense
		}
	}
	g.head[n] = -1
	g.compress(adj)
	for i := range n {
		if g.kind[i] != qgVariable {
			continue
		}
		for _, j := range adj[i] {
			if g.kind[j] == qgVariable {
				g.deg[i] += g.nv[j]
			}
		}
		g.insert(i)
	}
	return g
}

// compress merges indistinguishable nodes of the original graph, adj(i) ∪ {i} =
// adj(j) ∪ {j}, into supervariables before the first pivot: the coordinates of a body
// and the rows of a joint usually are. Degrees are then external (they leave out the
// supervariable itself), so a body of 3 coordinates with 2 joints has degree 4, like
// each of its joints' rows (6 with 3 coordinates counted twice otherwise), and ties are
// broken by the body-after-body order of the degree lists rather than by the size of the
// clique a node belongs to.
func (g *quotientGraph) compress(adj [][]int) {
	n := len(adj)
	for i := range n {
		if g.kind[i] != qgVariable {
			continue
		}
		h := i
		for _, j := range adj[i] {
			h += j
		}
		h %= n
		g.hash[i], g.hnxt[i], g.hhead[h] = h, g.hhead[h], i
	}
	for i := range n {
		if g.kind[i] != qgVariable || g.hhead[g.hash[i]] < 0 {
			continue
		}
		list := g.hhead[g.hash[i]]
		g.hhead[g.hash[i]] = -1
		for a := list; a >= 0; a = g.hnxt[a] {
			if g.kind[a] != qgVariable {
				continue
			}
			g.stamp++
			g.mark[a] = g.stamp
			for _, u := range adj[a] {
				g.mark[u] = g.stamp
			}
			for b := g.hnxt[a]; b >= 0; b = g.hnxt[b] {
				if g.kind[b] != qgVariable || len(adj[b]) != len(adj[a]) || g.mark[b] != g.stamp {
					continue
				}
				same := true
				for _, u := range adj[b] {
					same = same && g.mark[u] == g.stamp
				}
				if same {
					g.nv[a]++
					g.nv[b], g.kind[b] = 0, qgMerged
					g.chainNext[g.chainTail[a]] = b
					g.chainTail[a] = g.chainTail[b]
				}
			}
		}
	}
}

// insert puts variable i at the head of the list of its degree.
func (g *quotientGraph) insert(i int) {
	d := g.deg[i]
	g.prev[i], g.next[i] = -1, g.head[d]
	if g.head[d] >= 0 {
		g.prev[g.head[d]] = i
	}
	g.head[d] = i
	g.mindeg = min(g.mindeg, d)
}

// remove takes variable i out of its degree list.
func (g *quotientGraph) remove(i int) {
	if g.prev[i] >= 0 {
		g.next[g.prev[i]] = g.next[i]
	} else {
		g.head[g.deg[i]] = g.next[i]
	}
	if g.next[i] >= 0 {
		g.prev[g.next[i]] = g.prev[i]
	}
}

// popMin removes and returns a variable of least degree (the most recently inserted one
// on ties, which keeps elimination local along chains).
func (g *quotientGraph) popMin() int {
	for g.head[g.mindeg] < 0 {
		g.mindeg++
	}
	p := g.head[g.mindeg]
	g.remove(p)
	return p
}

// eliminate turns variable p into an element: it forms L_p, absorbs the elements of E_p,
// takes the variables of L_p out of the degree lists and returns L_p and its weight.
func (g *quotientGraph) eliminate(p int) (lp []int, lpw int) {
	g.stamp++
	g.mark[p] = g.stamp
	add := func(v int) {
		if g.kind[v] == qgVariable && g.mark[v] != g.stamp {
			g.mark[v] = g.stamp
			lp = append(lp, v)
			lpw += g.nv[v]
		}
	}
	for _, e := range g.elems[p] {
		if g.kind[e] != qgElement {
			continue
		}
		for _, v := range g.lset[e] {
			add(v)
		}
		g.kind[e], g.lset[e] = qgAbsorbed, nil
	}
	for _, v := range g.vars[p] {
		add(v)
	}
	g.kind[p], g.lset[p], g.lw[p] = qgElement, lp, lpw
	g.vars[p], g.elems[p] = nil, nil
	for _, v := range lp {
		g.remove(v)
	}
	return lp, lpw
}

// updateDegrees prunes A_i and E_i of every i ∈ L_p and sets its approximate external
// degree (Amestoy, Davis & Duff 1996, eq. 4); left is the weight of the variables not yet
// eliminated.
func (g *quotientGraph) updateDegrees(p int, lp []int, lpw, left int) {
	// w(e) = |L_e| − |L_e ∩ L_p| for every element adjacent to L_p.
	for _, v := range lp {
		for _, e := range g.elems[v] {
			if g.kind[e] != qgElement {
				continue
			}
			if g.wmark[e] != g.stamp {
				g.wmark[e], g.w[e] = g.stamp, g.lw[e]
			}
			g.w[e] -= g.nv[v]
		}
	}
	for _, v := range lp {
		ext := 0
		es := g.elems[v][:0]
		for _, e := range g.elems[v] {
			if g.kind[e] != qgElement {
				continue
			}
			if g.w[e] == 0 { // L_e ⊆ L_p: aggressive absorption
				g.kind[e], g.lset[e] = qgAbsorbed, nil
				continue
			}
			ext += g.w[e]
			es = append(es, e)
		}
		g.elems[v] = append(es, p)
		// Variables of L_p are now reached through element p: drop them from A_v.
		vs := g.vars[v][:0]
		for _, u := range g.vars[v] {
			if g.kind[u] == qgVariable && g.mark[u] != g.stamp {
				vs = append(vs, u)
				ext += g.nv[u]
			}
		}
		g.vars[v] = vs
		own := lpw - g.nv[v]
		g.deg[v] = max(0, min(left-g.nv[v], g.deg[v]+own, ext+own))
	}
}

// mergeSupervariables merges the variables of L_p whose A_i and E_i coincide: they have
// the same neighbours from now on, so they are eliminated together as one supervariable.
func (g *quotientGraph) mergeSupervariables(lp []int) {
	n := len(g.kind)
	for _, v := range lp {
		h := 0
		for _, u := range g.vars[v] {
			h += u
		}
		for _, e := range g.elems[v] {
			h += e
		}
		h %= n
		g.hash[v], g.hnxt[v], g.hhead[h] = h, g.hhead[h], v
	}
	for _, v := range lp {
		h := g.hash[v]
		list := g.hhead[h]
		if list < 0 {
			continue // bucket already done
		}
		g.hhead[h] = -1
		for i := list; i >= 0; i = g.hnxt[i] {
			if g.kind[i] != qgVariable {
				continue
			}
			g.stamp++
			for _, u := range g.vars[i] {
				g.mark[u] = g.stamp
			}
			for _, e := range g.elems[i] {
				g.mark[e] = g.stamp
			}
			for j := g.hnxt[i]; j >= 0; j = g.hnxt[j] {
				if g.kind[j] == qgVariable && g.sameNeighbours(i, j) {
					g.merge(i, j)
				}
			}
		}
	}
}

// sameNeighbours reports whether A_j and E_j equal A_i and E_i, which carry the stamp.
func (g *quotientGraph) sameNeighbours(i, j int) bool {
	if len(g.vars[i]) != len(g.vars[j]) || len(g.elems[i]) != len(g.elems[j]) {
		return false
	}
	for _, u := range g.vars[j] {
		if g.mark[u] != g.stamp {
			return false
		}
	}
	for _, e := range g.elems[j] {
		if g.mark[e] != g.stamp {
			return false
		}
	}
	return true
}

// merge adds variable j to the supervariable of i.
func (g *quotientGraph) merge(i, j int) {
	g.deg[i] -= g.nv[j] // j was counted in i's external degree
	g.nv[i] += g.nv[j]
	g.nv[j] = 0
	g.kind[j] = qgMerged
	g.vars[j], g.elems[j] = nil, nil
	g.chainNext[g.chainTail[i]] = j
	g.chainTail[i] = g.chainTail[j]
}
