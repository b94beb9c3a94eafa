package joint

import (
	"strings"
	"testing"
)

// TestBadInputIsRefusedByName: a joint on a frame that does not exist or with a zero
// axis, a cut joint on one
// frame or on a missing frame, a negative mass and a spring on a missing coordinate are
// refused by System with an error naming the element.
func TestBadInputIsRefusedByName(t *testing.T) {
	body := Body{Name: "b", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	cases := []struct {
		name  string
		build func(m *Model)
		want  string
	}{
		{"missing parent", func(m *Model) { m.Revolute("hinge", 3, [3]float64{}, [3]float64{0, 0, 1}, body) }, `joint "hinge": parent frame 3`},
		{"cut on one frame", func(m *Model) {
			f := m.Revolute("hinge", Ground, [3]float64{}, [3]float64{0, 0, 1}, body)
			m.Cut("loop", f, [3]float64{}, f, [3]float64{1, 0, 0}, [3]float64{1, 0, 0})
		}, `cut joint "loop" needs two different frames`},
		{"cut to a missing frame", func(m *Model) {
			f := m.Revolute("hinge", Ground, [3]float64{}, [3]float64{0, 0, 1}, body)
			m.Cut("loop", f, [3]float64{}, 7, [3]float64{}, [3]float64{1, 0, 0})
		}, `cut joint "loop": frame 7 does not exist`},
		{"negative mass", func(m *Model) {
			m.Revolute("hinge", Ground, [3]float64{}, [3]float64{0, 0, 1}, Body{Name: "lead", Mass: -1})
		}, `body "lead": negative mass`},
		{"spring on a missing coordinate", func(m *Model) {
			m.Revolute("hinge", Ground, [3]float64{}, [3]float64{0, 0, 1}, body)
			m.Spring(4, 1, 0, 0)
		}, "spring on coordinate 4"},
		{"zero axis", func(m *Model) { m.Prismatic("slide", Ground, [3]float64{}, [3]float64{}, body) }, `joint "slide": zero axis`},
		{"empty", func(m *Model) {}, "no joints"},
	}
	for _, c := range cases {
		m := &Model{}
		c.build(m)
		_, err := m.System()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
