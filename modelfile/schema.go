package modelfile

import _ "embed"

//go:embed model.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the model format: the structure, types
// and ranges Parse enforces, for editors and other tools. Parse checks more than the schema
// can say (names that refer to other elements, duplicate names, joints connecting a body to
// itself); a file that passes Parse passes the schema. The slice is a fresh copy.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }
