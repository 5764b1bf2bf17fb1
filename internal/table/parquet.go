package table

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// newParquetWriter returns a writer of a flat schema of required columns
// that keep the given order (a parquet.Group would sort them by name).
func newParquetWriter(w io.Writer, cols []Column) *parquet.GenericWriter[any] {
	g := make(orderedGroup, len(cols))
	for i, c := range cols {
		var node parquet.Node
		switch c.Kind {
		case Dict:
			node = parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
		case Float:
			node = parquet.Leaf(parquet.DoubleType)
		case Int:
			node = parquet.Int(64)
		default:
			node = parquet.String()
		}
		g[i] = &namedField{Node: parquet.Required(node), name: c.Name}
	}
	schema := parquet.NewSchema("consensus", g)
	return parquet.NewGenericWriter[any](w, schema, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("consensus", "", ""))
}

// orderedGroup is a Parquet group node whose fields keep their order.
type orderedGroup []parquet.Field

var _ parquet.Node = orderedGroup(nil)

func (g orderedGroup) ID() int                            { return 0 }
func (g orderedGroup) String() string                     { return fmt.Sprintf("group(%d fields)", len(g)) }
func (g orderedGroup) Type() parquet.Type                 { return parquet.Group{}.Type() }
func (g orderedGroup) Optional() bool                     { return false }
func (g orderedGroup) Repeated() bool                     { return false }
func (g orderedGroup) Required() bool                     { return true }
func (g orderedGroup) Leaf() bool                         { return false }
func (g orderedGroup) Fields() []parquet.Field            { return g }
func (g orderedGroup) Encoding() encoding.Encoding        { return nil }
func (g orderedGroup) Compression() compress.Codec        { return nil }
func (g orderedGroup) GoType() reflect.Type               { return reflect.TypeFor[map[string]any]() }
func (f *namedField) Name() string                        { return f.name }
func (f *namedField) Value(v reflect.Value) reflect.Value { return v.MapIndex(reflect.ValueOf(f.name)) }

// namedField is a field of an orderedGroup.
type namedField struct {
	parquet.Node
	name string
}

var _ parquet.Field = (*namedField)(nil)
