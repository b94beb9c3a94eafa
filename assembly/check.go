package assembly

import (
	"errors"
	"fmt"
	"math"
)

// check.go: a model's elements ⇒ one error per bad element, each naming it. A route calls
// these while it assembles, in the order of its elements, and returns Err at the end, so a
// user sees every mistake of a model at once.

// Checker collects the errors of one assembly and the names its elements claim: bodies
// have their own namespace; joints and forces share one, because their names prefix the
// constraint rows and the reports.
type Checker struct {
	route  string          // "planar", "spatial": the prefix of every message
	errs   []error         // one per bad element
	bodies []string        // body names by index, ground first
	body   map[string]bool // body names seen
	names  map[string]string
}

// NewChecker returns an empty Checker for the route's messages.
func NewChecker(route string) *Checker {
	return &Checker{route: route, body: map[string]bool{}, names: map[string]string{}}
}

// Bad records one error; format names the element first.
func (c *Checker) Bad(format string, a ...any) {
	c.errs = append(c.errs, fmt.Errorf(c.route+": "+format, a...))
}

// Err returns the errors recorded so far, joined, or nil.
func (c *Checker) Err() error { return errors.Join(c.errs...) }

// Body records body k's name (k = 0 is the ground, whose name is not checked) and reports
// an empty or duplicate one.
func (c *Checker) Body(k int, name string) {
	c.bodies = append(c.bodies, name)
	if k > 0 {
		switch {
		case name == "":
			c.Bad("body %d has no name", k)
		case c.body[name]:
			c.Bad("body %d: duplicate body name %q", k, name)
		}
	}
	c.body[name] = true
}

// Name claims name for element number idx of the given kind ("revolute", "tsda", …) and
// reports an empty name or one another joint or force already has.
func (c *Checker) Name(kind, name string, idx int) {
	if name == "" {
		c.Bad("%s %d has no name", kind, idx)
		return
	}
	if prev, dup := c.names[name]; dup {
		c.Bad("%s %q: duplicate name (already a %s)", kind, name, prev)
		return
	}
	c.names[name] = kind
}

// NonNegative reports a parameter of element what that is not finite and ≥ 0.
func (c *Checker) NonNegative(what, key string, x float64) {
	if !(x >= 0) || math.IsInf(x, 0) {
		c.Bad("%s: %s = %g, want finite and ≥ 0", what, key, x)
	}
}

// Positive reports a parameter of element what that is not finite and > 0.
func (c *Checker) Positive(what, key string, x float64) {
	if !(x > 0) || math.IsInf(x, 0) {
		c.Bad("%s: %s = %g, want finite and > 0", what, key, x)
	}
}

// Finite reports every parameter of element what, given as name, value pairs, that is NaN
// or infinite.
func (c *Checker) Finite(what string, kv ...any) {
	for k := 0; k+1 < len(kv); k += 2 {
		if x := kv[k+1].(float64); !IsFinite(x) {
			c.Bad("%s: %s = %g is not finite", what, kv[k], x)
		}
	}
}

// MarkerBody reports a marker (label from MarkerLabel) on a body that does not exist and
// says whether body is one of the nbody bodies (ground included).
func (c *Checker) MarkerBody(label string, body, nbody int) bool {
	if body < 0 || body >= nbody {
		c.Bad("%s: body %d does not exist (bodies 0..%d)", label, body, nbody-1)
		return false
	}
	return true
}

// Marker reports a marker id of element what that does not exist and says whether id
// names a valid marker: markerBody[id−1] is the body of marker id, −1 for a marker already
// reported as bad.
func (c *Checker) Marker(what string, id int, markerBody []int) bool {
	if id < 1 || id > len(markerBody) {
		c.Bad("%s: marker %d does not exist (markers 1..%d)", what, id, len(markerBody))
		return false
	}
	return markerBody[id-1] >= 0
}

// MarkerPair checks the two markers of element what (see Marker) and that they are on
// different bodies.
func (c *Checker) MarkerPair(what string, i, j int, markerBody []int) bool {
	okI := c.Marker(what, i, markerBody)
	okJ := c.Marker(what, j, markerBody)
	if !okI || !okJ {
		return false
	}
	if b := markerBody[i-1]; b == markerBody[j-1] {
		c.Bad("%s: markers %d and %d are both on body %q; want two different bodies", what, i, j, c.bodies[b])
		return false
	}
	return true
}

// MovingBody reports a body of element what that is not one of the moving bodies 1..nbody−1.
func (c *Checker) MovingBody(what string, body, nbody int) bool {
	if body < 1 || body >= nbody {
		c.Bad("%s: body %d is not a moving body (bodies 1..%d)", what, body, nbody-1)
		return false
	}
	return true
}

// EarlierJoint reports a joint j (1-based) that element what, joint number self+1, refers
// to but that does not come before it.
func (c *Checker) EarlierJoint(what string, j, self int) bool {
	if j < 1 || j > self {
		c.Bad("%s: joint %d does not exist before it (joints 1..%d)", what, j, self)
		return false
	}
	return true
}

// MarkerLabel names a marker in messages: by its name when it has one, else by its id.
func MarkerLabel(name string, id int) string {
	if name != "" {
		return fmt.Sprintf("marker %q", name)
	}
	return fmt.Sprintf("marker %d", id)
}

// IsFinite reports whether x is neither NaN nor infinite.
func IsFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// SpringDamper checks the parameters of spring-damper what: stiffness k, damping d and the
// free value (named freeKey) finite, and a free length (nonNegative) not below zero.
func (c *Checker) SpringDamper(what string, k, d float64, freeKey string, free float64, nonNegative bool) {
	c.Finite(what, "K", k, "C", d, freeKey, free)
	if nonNegative && free < 0 {
		c.Bad("%s: %s = %g, want >= 0", what, freeKey, free)
	}
}

// RevoluteJoint reports an RSDA's joint (1-based among njoint joints) that is not a
// revolute joint of the model and says whether it is one; isRevolute is asked only for a
// joint that exists.
func (c *Checker) RevoluteJoint(what string, j, njoint int, isRevolute func(j int) bool) bool {
	if j < 1 || j > njoint || !isRevolute(j) {
		c.Bad("%s: joint %d is not a revolute joint of the model", what, j)
		return false
	}
	return true
}
