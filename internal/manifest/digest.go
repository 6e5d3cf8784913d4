package manifest

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"github.com/mirrorlint/mirrorlint/internal/parallel"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Digest writes to h everything of objs that checking them can read: each
// object's identity and the fields the loader set, its YAML nodes with
// their positions, styles and comments, and the text of every file a node
// sits in (where a value ends is found in it). The typed values and
// Content are not written: the loader derives them from the nodes. Two
// lists with the same digest are checked alike by the same build, which
// is what a cache of check results keyed by it relies on.
//
// A long list is digested in chunks of digestChunk objects on several
// goroutines, and h is given the chunks' digests in order: the key of a
// cluster of ten thousand objects is otherwise one goroutine's walk of
// every node while the other cores wait for it.
func Digest(h hash.Hash, objs []*Object) {
	if len(objs) < 2*digestChunk {
		digestObjects(h, objs)
		return
	}
	sums := make([][sha256.Size]byte, (len(objs)+digestChunk-1)/digestChunk)
	parallel.Each(len(sums), func(i int) {
		c := sha256.New()
		digestObjects(c, objs[i*digestChunk:min((i+1)*digestChunk, len(objs))])
		c.Sum(sums[i][:0])
	})
	d := digester{h: h}
	d.int(len(objs))
	for _, s := range sums {
		d.buf = append(d.buf, s[:]...)
	}
	d.flush()
}

const digestChunk = 512

func digestObjects(h hash.Hash, objs []*Object) {
	d := digester{h: h, texts: map[*source][sha256.Size]byte{}}
	d.int(len(objs))
	for _, o := range objs {
		d.object(o)
	}
	d.flush()
}

type digester struct {
	h     hash.Hash
	buf   []byte
	texts map[*source][sha256.Size]byte
	spans map[*yaml.Node]nodeSpan
}

func (d *digester) object(o *Object) {
	for _, s := range []string{o.APIVersion, string(o.Kind), o.Name, o.File, o.Origin, o.DeliveredBy, o.BoundTo, o.DecodeError} {
		d.str(s)
	}
	for _, b := range []bool{o.Known, o.Unmodelled, o.Partial, o.hasTyped()} {
		d.bool(b)
	}
	d.int(o.Doc)
	d.int(o.Item)
	d.int(len(o.Placeholders))
	for _, p := range o.Placeholders {
		d.str(p.Path.String())
		d.str(p.Value)
		d.str(p.Text)
	}
	d.text(o.src)
	d.spans = o.spans
	d.int(len(o.spans))
	d.node(o.Node)
}

// text writes the digest of a file's text: its blob id when the loader
// knows it (the id the content cache already trusts the text by), else
// its SHA-256, computed once per text.
func (d *digester) text(s *source) {
	if s == nil {
		d.bool(false)
		return
	}
	if s.blob != "" {
		d.buf = append(d.buf, 2)
		d.str(s.blob)
		return
	}
	sum, ok := d.texts[s]
	if !ok {
		sum = sha256.Sum256(s.data)
		d.texts[s] = sum
	}
	d.bool(true)
	d.buf = append(d.buf, sum[:]...)
}

func (d *digester) node(n *yaml.Node) {
	if n == nil {
		d.int(-1)
		return
	}
	d.int(int(n.Kind))
	d.int(int(n.Style))
	d.int(n.Line)
	d.int(n.Column)
	for _, s := range []string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment} {
		d.str(s)
	}
	if sp, ok := d.spans[n]; ok {
		d.bool(true)
		d.str(sp.file)
		d.text(sp.src)
	} else {
		d.bool(false)
	}
	if n.Alias != nil {
		// The anchored node is written where it stands.
		d.str(n.Alias.Anchor)
	}
	d.int(len(n.Content))
	for _, c := range n.Content {
		d.node(c)
	}
	if len(d.buf) > 32<<10 {
		d.flush()
	}
}

func (d *digester) int(i int) { d.buf = binary.AppendVarint(d.buf, int64(i)) }

func (d *digester) bool(b bool) {
	if b {
		d.buf = append(d.buf, 1)
	} else {
		d.buf = append(d.buf, 0)
	}
}

func (d *digester) str(s string) {
	d.buf = binary.AppendUvarint(d.buf, uint64(len(s)))
	d.buf = append(d.buf, s...)
}

func (d *digester) flush() {
	d.h.Write(d.buf)
	d.buf = d.buf[:0]
}
