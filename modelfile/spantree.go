package modelfile

import "slices"

// The spanning trees of joint coordinates (grow, spanningTree3) grow from ground in
// breadth-first passes: a joint may join in a pass when one of its bodies was in the tree
// at the start of the pass. A joint none of whose bodies joined in the last pass was
// weighed in that pass with the same bodies in the tree and did not join, so each pass
// weighs only the joints at the bodies the last one added: O(N) over all passes, where
// weighing every joint in every pass was O(N²) on a chain.

// passes tracks the passes: which bodies are in the tree, in which pass they joined, and
// the joints at each body.
type passes struct {
	incident map[string][]int // body → its joints' indices, in file order
	level    map[string]int   // body → the pass it joined in (ground: 0)
	frontier []string         // bodies added in the current pass
	pass     int
}

// newPasses starts from the bodies in tree (ground first) with the joints' bodies ends.
func newPasses(tree []string, nj int, ends func(k int) (bi, bj string)) *passes {
	p := &passes{incident: map[string][]int{}, level: map[string]int{}}
	for k := range nj {
		bi, bj := ends(k)
		p.incident[bi] = append(p.incident[bi], k)
		if bj != bi {
			p.incident[bj] = append(p.incident[bj], k)
		}
	}
	for _, b := range tree {
		p.level[b] = 0
	}
	p.frontier = append(p.frontier, tree...)
	return p
}

// next starts a pass and returns the joints to weigh in it, in file order; none when the
// last pass added no body.
func (p *passes) next() []int {
	var cand []int
	for _, b := range p.frontier {
		cand = append(cand, p.incident[b]...)
	}
	slices.Sort(cand)
	p.frontier = p.frontier[:0]
	p.pass++
	return slices.Compact(cand)
}

// at reports whether body b was in the tree at the start of the current pass.
func (p *passes) at(b string) bool {
	l, ok := p.level[b]
	return ok && l < p.pass
}

// join records that body b joined the tree in the current pass.
func (p *passes) join(b string) {
	p.level[b] = p.pass
	p.frontier = append(p.frontier, b)
}
