package joint

import (
	"math/rand/v2"
	"testing"
)

// TestFrameMotionCacheFollowsTheState: FrameMotion reuses its recursion only at the same
// (q, v, a). With the state rewritten in the same slices between reads, and with reads that
// switch between positions only, velocities and accelerations, every read equals that of a
// fresh System, bit for bit.
func TestFrameMotionCacheFollowsTheState(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	m := randomTree(rng)
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := randomState(rng, nq)
	a, _ := randomState(rng, nq)
	p := [3]float64{0.1, 0.2, -0.3}
	for round := range 4 {
		for f := range nq {
			for _, args := range [][2][]float64{{v, a}, {nil, nil}, {v, nil}, {v, nil}, {v, a}} {
				got := sys.FrameMotion(q, args[0], args[1], f, p)
				fresh, err := m.System()
				if err != nil {
					t.Fatal(err)
				}
				if want := fresh.FrameMotion(q, args[0], args[1], f, p); got != want {
					t.Fatalf("round %d, frame %d, v nil %t, a nil %t: %+v, fresh System %+v",
						round, f, args[0] == nil, args[1] == nil, got, want)
				}
			}
		}
		// rewrite the state in place: one of q, v, a in turn
		x := [][]float64{q, v, a, q}[round]
		for i := range x {
			x[i] += 0.1 * (rng.Float64() - 0.5)
		}
	}
}

// TestMotionGenerations: MotionOf reads the motion Motion made, equal to FrameMotion's, and
// refuses it once FrameMotion has computed another.
func TestMotionGenerations(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 6))
	sys, nq, q, v := randomSystem(t, rng)
	a, _ := randomState(rng, nq)
	p := [3]float64{0.3, 0, -0.1}
	gen := sys.Motion(q, v, a)
	for f := range nq {
		got, ok := sys.MotionOf(gen, f, p)
		if want := sys.FrameMotion(q, v, a, f, p); !ok || got != want {
			t.Fatalf("frame %d: MotionOf %+v (%t), FrameMotion %+v", f, got, ok, want)
		}
	}
	if again := sys.Motion(q, v, a); again != gen {
		t.Errorf("Motion at the same state: generation %d, then %d", gen, again)
	}
	sys.FrameMotion(q, v, nil, 0, p)
	if _, ok := sys.MotionOf(gen, 0, p); ok {
		t.Error("MotionOf read a motion FrameMotion has replaced")
	}
}
