package assembly

// catalog.go: assembly ⇒ the names of coordinates and constraint rows (dae.Namer) and the
// lists of bodies, joints and forces that reports and the model file read.

// ElementInfo names one element and its kind ("ground", "body"; a joint kind of the route;
// "gravity" or a force kind), with the constraint rows it owns (a joint's rows, a spatial
// body's normalization row; nil for forces).
type ElementInfo struct {
	Name, Kind string
	Rows       []int
}

// Catalog holds the names of one System, recorded in assembly order through a
// CatalogWriter. A route's System embeds it, which gives the System CoordinateName and
// ConstraintName (dae.Namer) and Bodies, Joints and Forces, and nothing to change them.
type Catalog struct {
	coords, rows           []string
	bodies, joints, forces []ElementInfo
}

// CatalogWriter records names into a Catalog while a route assembles.
type CatalogWriter struct{ c *Catalog }

// WriteCatalog returns a writer that appends to c.
func WriteCatalog(c *Catalog) CatalogWriter { return CatalogWriter{c} }

// AddCoordinates names the next coordinates prefix+suffix, one per suffix (prefix is a
// body's name, suffixes ".x", ".y", …).
func (w CatalogWriter) AddCoordinates(prefix string, suffixes ...string) {
	for _, s := range suffixes {
		w.c.coords = append(w.c.coords, prefix+s)
	}
}

// AddBody lists a body with its kind and the rows it owns (nil for none).
func (w CatalogWriter) AddBody(name, kind string, rows []int) {
	w.c.bodies = append(w.c.bodies, ElementInfo{Name: name, Kind: kind, Rows: rows})
}

// AddRow names the next constraint row and returns its index.
func (w CatalogWriter) AddRow(name string) int {
	w.c.rows = append(w.c.rows, name)
	return len(w.c.rows) - 1
}

// AddJoint lists a joint of the given kind and names its rows name+"."+suffix, the next
// constraint rows; it returns the index of the first.
func (w CatalogWriter) AddJoint(name, kind string, suffixes []string) int {
	first := len(w.c.rows)
	rows := make([]int, len(suffixes))
	for k, s := range suffixes {
		rows[k] = w.AddRow(name + "." + s)
	}
	w.c.joints = append(w.c.joints, ElementInfo{Name: name, Kind: kind, Rows: rows})
	return first
}

// AddForce lists a force element.
func (w CatalogWriter) AddForce(name, kind string) {
	w.c.forces = append(w.c.forces, ElementInfo{Name: name, Kind: kind})
}

// NumRows returns the number of constraint rows named so far.
func (w CatalogWriter) NumRows() int { return len(w.c.rows) }

// CoordinateName returns the name of coordinate i ("body.x", …), "" when out of range.
func (c *Catalog) CoordinateName(i int) string { return pick(c.coords, i) }

// ConstraintName returns the name of constraint row i ("joint.suffix", "body.norm"), ""
// when out of range.
func (c *Catalog) ConstraintName(i int) string { return pick(c.rows, i) }

// Bodies lists the bodies, ground first. The Rows slices are shared: do not modify them.
func (c *Catalog) Bodies() []ElementInfo { return append([]ElementInfo(nil), c.bodies...) }

// Joints lists the constraint elements in the order of their rows, with the rows. The Rows
// slices are shared: do not modify them.
func (c *Catalog) Joints() []ElementInfo { return append([]ElementInfo(nil), c.joints...) }

// Forces lists the force elements in the order they were added, preceded by "gravity"
// when it is not zero.
func (c *Catalog) Forces() []ElementInfo { return append([]ElementInfo(nil), c.forces...) }

// BodyIndex returns the index of the named body (0 is the ground); 0, false when none has
// that name.
func (c *Catalog) BodyIndex(name string) (int, bool) { return find(c.bodies, name) }

// JointIndex returns the index of the named joint (0 is the first joint); 0, false when
// none has that name.
func (c *Catalog) JointIndex(name string) (int, bool) { return find(c.joints, name) }

func pick(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return ""
	}
	return names[i]
}

func find(list []ElementInfo, name string) (int, bool) {
	for k, e := range list {
		if e.Name == name {
			return k, true
		}
	}
	return 0, false
}
