package dae_test

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// withFriction adds to a linkSys a λ-dependent force f_λ,0 = −c·λ₀² on the first
// coordinate; on says whether the instance has it (HasReactionForce).
type withFriction struct {
	*linkSys
	on bool
	c  float64
}

func (s withFriction) HasReactionForce() bool { return s.on }
func (s withFriction) AddReactionForce(dst []float64, t float64, q, v, lambda []float64) {
	dst[0] -= s.c * lambda[0] * lambda[0]
}
func (s withFriction) ReactionForceDerivative(fq, fv, fl *mat.Dense, t float64, q, v, lambda []float64) {
	fq.Zero()
	fv.Zero()
	fl.Zero()
	fl.Set(0, 0, -2*s.c*lambda[0])
}

// TestReactionForceCapability: AsReactionForce answers per instance; Check compares the
// three derivatives (and finds a wrong ∂f_λ/∂λ, naming it); Reduce refuses such a system.
func TestReactionForceCapability(t *testing.T) {
	sys, c := reducedPoint(t)
	if _, ok := dae.AsReactionForce(withFriction{sys, false, 1}); ok {
		t.Errorf("a system whose HasReactionForce is false counts as having λ-dependent forces")
	}
	good := withFriction{sys, true, 0.7}
	if !dae.HasReactionForce(good) {
		t.Fatal("HasReactionForce is false")
	}
	p := dae.CheckPoint{Q: c.Q, V: c.V, Lambda: []float64{1.5, -0.5, 0.25, 2, 1}[:len(c.Lambda)]}
	ms, err := dae.Check(good, p, 1e-6)
	if err != nil {
		t.Error(err)
	}
	var seen int
	for _, m := range ms {
		if strings.HasPrefix(m.Quantity, "df_lambda") {
			seen++
		}
	}
	if seen != 3 {
		t.Errorf("Check compared %d λ-force derivatives, want 3", seen)
	}
	if _, err := dae.Check(badFriction{good}, p, 1e-6); err == nil || !strings.Contains(err.Error(), "df_lambda/dlambda") {
		t.Errorf("Check with a wrong ∂f_λ/∂λ: err = %v, want it named", err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Reduce of a system with λ-dependent forces did not panic")
		}
	}()
	dae.Reduce(good, c.KeptRows())
}

// badFriction has ∂f_λ/∂λ off by a factor 2.
type badFriction struct{ withFriction }

func (s badFriction) ReactionForceDerivative(fq, fv, fl *mat.Dense, t float64, q, v, lambda []float64) {
	s.withFriction.ReactionForceDerivative(fq, fv, fl, t, q, v, lambda)
	fl.Set(0, 0, 2*fl.At(0, 0))
}
