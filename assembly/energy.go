package assembly

// Energies are the parts of the mechanical energy of one state of a mechanism; with the
// work of WorkMeter they form the invariant Π = T + V − W_nc − W_driving of seed 001
// (eqs. 11-12).
type Energies struct {
	Kinetic float64 // T
	Gravity float64 // −Σ m gᵀR
	Spring  float64 // Σ ∫ spring laws of the spring-dampers that implement law.Potential
	Strain  float64 // Σ ½ eᵀ K e of the flexible bodies
}

// Potential returns Gravity + Spring + Strain.
func (e Energies) Potential() float64 { return e.Gravity + e.Spring + e.Strain }
