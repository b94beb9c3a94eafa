package law

import (
	"fmt"
	"math"
)

// Friction is the smoothed Coulomb-plus-viscous friction of a joint whose normal force is
// its own reaction (joint friction as in MSC Adams). With s the rate of the joint
// coordinate (an angle rate for a revolute joint, a sliding speed for a translational one)
// and N the normal force, the friction force (torque for a revolute) along the coordinate is
//
//	F(s, N) = −( μ R N_ε tanh(R s / VReg) + Viscous · s ),    N_ε = √(N² + NormalEps²),
//
// where R is Radius (the pin radius of a revolute joint: the torque of a pin force N rubbing
// at radius R is μ R N and the slip speed there is R s; 1 for a translational joint, whose
// slip speed is s). tanh replaces the sign of the slip speed: the law is C^∞, reaches
// 0.995·μ R N at a slip speed of 3·VReg and, below VReg, acts as a steep viscous damper of
// coefficient μ R² N/VReg, so a joint that should stick creeps instead, at the speed
// c' = (VReg/R)·atanh(L/(μ R N)) where the friction balances a load L < μ R N. N_ε
// smooths |N| at zero so that F is differentiable in the reaction; NormalEps is a force
// [default 1e-6 N].
type Friction struct {
	Mu        float64 // Coulomb coefficient μ ≥ 0
	VReg      float64 // regularization slip speed > 0 [m/s]
	Radius    float64 // lever R > 0: pin radius [m] for revolute joints, 1 for translational
	Viscous   float64 // viscous coefficient ≥ 0 [N s/m or N m s/rad]
	NormalEps float64 // ε of N_ε [N]; 0 takes DefaultNormalEps
}

// DefaultNormalEps is the ε of N_ε = √(N² + ε²) when Friction.NormalEps is 0: 1e-6 N
// changes the Coulomb force by less than 1e-12 relative for any reaction above 1 mN while
// keeping ∂N_ε/∂N = N/N_ε continuous through N = 0.
const DefaultNormalEps = 1e-6

// Check reports the first parameter out of range, naming it.
func (f Friction) Check() error {
	switch {
	case !(f.Mu >= 0) || math.IsInf(f.Mu, 0):
		return fmt.Errorf("friction: mu = %g, want a finite value ≥ 0", f.Mu)
	case !(f.VReg > 0) || math.IsInf(f.VReg, 0):
		return fmt.Errorf("friction: v_reg = %g, want a finite value > 0", f.VReg)
	case !(f.Radius > 0) || math.IsInf(f.Radius, 0):
		return fmt.Errorf("friction: radius = %g, want a finite value > 0", f.Radius)
	case !(f.Viscous >= 0) || math.IsInf(f.Viscous, 0):
		return fmt.Errorf("friction: viscous = %g, want a finite value ≥ 0", f.Viscous)
	case !(f.NormalEps >= 0) || math.IsInf(f.NormalEps, 0):
		return fmt.Errorf("friction: normal_eps = %g, want a finite value ≥ 0", f.NormalEps)
	}
	return nil
}

// Eval returns F(s, N²) of the law above and its derivatives ∂F/∂s and ∂F/∂(N²); it
// takes N² (a sum of squared reaction components) so that callers differentiate it by the
// chain rule without a square root of their own.
func (f Friction) Eval(s, n2 float64) (force, dFds, dFdn2 float64) {
	eps := f.NormalEps
	if eps == 0 {
		eps = DefaultNormalEps
	}
	ne := math.Sqrt(n2 + eps*eps)
	x := f.Radius * s / f.VReg
	th := math.Tanh(x)
	c := f.Mu * f.Radius
	force = -(c*ne*th + f.Viscous*s)
	dFds = -(c*ne*(1-th*th)*f.Radius/f.VReg + f.Viscous)
	dFdn2 = -c * th / (2 * ne)
	return force, dFds, dFdn2
}
