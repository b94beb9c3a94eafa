package modelfile

import "fmt"

// checkStructure refuses, before parsing, a file larger than MaxFileBytes, nested deeper
// than MaxNesting, or with a block mapping of more than MaxMappingKeys keys (limits.go
// says why). It reads the bytes with a small model of YAML's lexical structure, in one pass
// and constant memory per level:
//
//   - flow collections: a "[" or "{" that starts a node (at the start of a value, after an
//     anchor or a tag, or anywhere inside another flow collection) opens a level, "]" or
//     "}" closes one;
//   - block collections: a stack of indentation columns; a line indented deeper than the
//     innermost level opens a level, and so does the content of each "- " or "? " entry at
//     its own column ("- - x" is two levels); a line at a level's column that is not an
//     entry counts as one of its keys;
//   - quoted scalars, comments and block scalars ("|" or ">" and the lines indented deeper
//     than the line that opens them) are skipped.
//
// The model errs on the side of counting, so no hostile shape slips past it: a bracket
// inside a flow-style plain scalar opens a level, and the continuation lines of a
// multi-line plain scalar count as keys. It undercounts in one place: a block list written
// at its parent key's column ("key:\n- a") shares the key's level, so the parser's depth
// is at most twice the one measured, still far too shallow to cost memory. A file in the
// documented format stays far below every limit.
func checkStructure(file string, data []byte) *Error {
	if len(data) > MaxFileBytes {
		return &Error{File: file, Msg: fmt.Sprintf("file larger than the limit of %d bytes (2 MiB, MaxFileBytes)", MaxFileBytes)}
	}
	s := structScan{file: file, blockEnd: -1}
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		if err := s.line(n, line); err != nil {
			return err
		}
	}
	return nil
}

// cutLine splits off the first line; "\n", "\r\n" and a lone "\r" end a line, as they do
// for the YAML scanner.
func cutLine(b []byte) (line, rest []byte) {
	for i, c := range b {
		switch c {
		case '\n':
			return b[:i], b[i+1:]
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				return b[:i], b[i+2:]
			}
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}

// structScan is the state of checkStructure between lines.
type structScan struct {
	file     string
	levels   []blockLevel // open block collections, innermost last
	flow     int          // open flow collections
	quote    byte         // the quote of an open quoted scalar, else 0
	blockEnd int          // inside a block scalar: lines indented deeper belong to it; else −1
	atStart  bool         // the next non-blank character starts a node
}

// blockLevel is an open block collection: its column, the keys counted at that column and
// the line of the first.
type blockLevel struct{ col, keys, line int }

func (s *structScan) depth() int { return len(s.levels) + s.flow }

func (s *structScan) errorf(line, col int, format string, args ...any) *Error {
	return &Error{File: s.file, Line: line, Column: col + 1, Msg: fmt.Sprintf(format, args...)}
}

func (s *structScan) tooDeep(line, col int) *Error {
	return s.errorf(line, col, "lists and mappings nested more than %d levels deep (MaxNesting); a model needs fewer than 10", MaxNesting)
}

// line reads line number n.
func (s *structScan) line(n int, b []byte) *Error {
	ind := 0
	for ind < len(b) && b[ind] == ' ' {
		ind++
	}
	blank := true
	for _, c := range b[ind:] {
		if !isBlank(c) {
			blank = false
			break
		}
	}
	if s.blockEnd >= 0 {
		if blank || ind > s.blockEnd {
			return nil
		}
		s.blockEnd = -1
	}
	start := 0
	if s.flow == 0 && s.quote == 0 {
		if blank || b[ind] == '#' {
			return nil
		}
		col, err := s.block(n, b, ind)
		if err != nil {
			return err
		}
		start, s.atStart = col, true
	}
	return s.scan(n, b, start, ind)
}

// block updates the block levels for a line indented by ind and returns the column where
// its content starts after any "- " or "? " entries.
func (s *structScan) block(n int, b []byte, ind int) (int, *Error) {
	col := ind
	for {
		for len(s.levels) > 0 && s.levels[len(s.levels)-1].col > col {
			s.levels = s.levels[:len(s.levels)-1]
		}
		if len(s.levels) == 0 || s.levels[len(s.levels)-1].col < col {
			s.levels = append(s.levels, blockLevel{col: col, line: n})
			if s.depth() > MaxNesting {
				return 0, s.tooDeep(n, col)
			}
		}
		if (b[col] == '-' || b[col] == '?') && (col+1 == len(b) || isBlank(b[col+1])) {
			col++
			for col < len(b) && isBlank(b[col]) {
				col++
			}
			if col == len(b) || b[col] == '#' {
				return col, nil // the entry's content starts on a later line
			}
			continue
		}
		top := &s.levels[len(s.levels)-1]
		top.keys++
		if top.keys > MaxMappingKeys {
			return 0, s.errorf(n, col, "more than %d keys in the mapping that starts at line %d (MaxMappingKeys)", MaxMappingKeys, top.line)
		}
		return col, nil
	}
}

// scan reads the characters of line n from column i on: quotes, comments, flow brackets
// and the start of block scalars. ind is the line's indentation.
func (s *structScan) scan(n int, b []byte, i, ind int) *Error {
	for ; i < len(b); i++ {
		c := b[i]
		if s.quote != 0 {
			switch {
			case s.quote == '\'' && c == '\'':
				if i+1 < len(b) && b[i+1] == '\'' {
					i++ // '' is an escaped quote
				} else {
					s.quote = 0
				}
			case s.quote == '"' && c == '\\':
				i++
			case s.quote == '"' && c == '"':
				s.quote = 0
			}
			continue
		}
		if isBlank(c) {
			continue
		}
		if c == '#' && (i == 0 || isBlank(b[i-1])) {
			return nil // a comment
		}
		if s.atStart {
			switch c {
			case '&', '!': // an anchor or a tag; the node follows it
				for i+1 < len(b) && !isBlank(b[i+1]) && !isFlowIndicator(b[i+1]) {
					i++
				}
				continue
			case '[', '{':
				if err := s.open(n, i); err != nil {
					return err
				}
				continue
			case '\'', '"':
				s.quote, s.atStart = c, false
				continue
			case '|', '>':
				if s.flow == 0 {
					s.blockEnd = ind
					return nil
				}
			case '?':
				if i+1 == len(b) || isBlank(b[i+1]) {
					continue
				}
			case ',':
				continue
			}
			s.atStart = false // a plain scalar or an alias
		}
		if s.flow > 0 {
			switch c {
			case '[', '{':
				if err := s.open(n, i); err != nil {
					return err
				}
			case ']', '}':
				s.flow--
				s.atStart = false
			case ',':
				s.atStart = true
			case ':':
				s.atStart = i+1 == len(b) || isBlank(b[i+1]) || isFlowIndicator(b[i+1])
			}
			continue
		}
		if c == ':' && (i+1 == len(b) || isBlank(b[i+1])) {
			s.atStart = true
		}
	}
	return nil
}

// open enters a flow collection at column i of line n.
func (s *structScan) open(n, i int) *Error {
	s.flow++
	s.atStart = true
	if s.depth() > MaxNesting {
		return s.tooDeep(n, i)
	}
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isFlowIndicator(c byte) bool {
	return c == '[' || c == ']' || c == '{' || c == '}' || c == ','
}
