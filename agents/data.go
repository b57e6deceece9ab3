package agents

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Map is an ordered mapping of plain data: the values a tool's file holds
// that bn keeps as they were written. Values are string, bool, int64,
// float64, nil, []any and *Map.
type Map struct {
	Keys   []string
	Values map[string]any
}

// Len is the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.Keys)
}

// Get returns the value of key.
func (m *Map) Get(key string) (any, bool) {
	if m == nil || m.Values == nil {
		return nil, false
	}
	v, ok := m.Values[key]
	return v, ok
}

// Set sets key, keeping its place if it exists.
func (m *Map) Set(key string, v any) {
	if m.Values == nil {
		m.Values = map[string]any{}
	}
	if _, ok := m.Values[key]; !ok {
		m.Keys = append(m.Keys, key)
	}
	m.Values[key] = v
}

// Delete removes key.
func (m *Map) Delete(key string) {
	if _, ok := m.Values[key]; !ok {
		return
	}
	delete(m.Values, key)
	m.Keys = slices.DeleteFunc(m.Keys, func(k string) bool { return k == key })
}

// Clone copies the map deeply.
func (m Map) Clone() Map {
	if m.Values == nil {
		return Map{}
	}
	out := Map{Keys: slices.Clone(m.Keys), Values: make(map[string]any, len(m.Values))}
	for k, v := range m.Values {
		out.Values[k] = cloneData(v)
	}
	return out
}

func cloneData(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneData(e)
		}
		return out
	case *Map:
		c := x.Clone()
		return &c
	}
	return v
}

// Data converts a decoded YAML, JSON or TOML value into the types Map
// holds: maps become *Map (keys sorted when the source had no order),
// every integer type int64, every float float64.
func Data(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return x, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("number %d is too large", x)
		}
		return int64(x), nil
	case float32:
		return float64(x), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, err := Data(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := &Map{}
		for _, k := range keys {
			d, err := Data(x[k])
			if err != nil {
				return nil, err
			}
			m.Set(k, d)
		}
		return m, nil
	case *Map:
		return x, nil
	case Map:
		return &x, nil
	}
	return nil, fmt.Errorf("unsupported value %v (%T)", v, v)
}

// EqualData compares two data values; maps compare as sets of keys.
func EqualData(a, b any) bool {
	switch x := a.(type) {
	case *Map:
		y, ok := b.(*Map)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.Keys {
			yv, ok := y.Get(k)
			if !ok || !EqualData(x.Values[k], yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !EqualData(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return x == float64(y)
		}
		return false
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
		return false
	}
	return a == b
}

// Plain converts data back to Go's generic types (map[string]any for
// maps), for encoders that take them.
func Plain(v any) any {
	switch x := v.(type) {
	case *Map:
		out := make(map[string]any, x.Len())
		for _, k := range x.Keys {
			out[k] = Plain(x.Values[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}
