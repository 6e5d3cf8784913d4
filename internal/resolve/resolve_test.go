package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// conf is a hand-written registries.conf in MCO's layout: a
// NeverContactSource release mirror, a registry with a digest-only and a
// tag-only mirror, a nested scope under it whose second mirror lies inside a
// blocked wildcard scope, an insecure wildcard, and a docker.io mirror.
const conf = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]

[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev"
  blocked = true

  [[registry.mirror]]
    location = "mirror.example.com/ocp"
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "registry.redhat.io"

  [[registry.mirror]]
    location = "mirror.example.com/redhat"
    pull-from-mirror = "digest-only"

  [[registry.mirror]]
    location = "tags.example.com/redhat"
    pull-from-mirror = "tag-only"

[[registry]]
  prefix = ""
  location = "registry.redhat.io/ubi9"

  [[registry.mirror]]
    location = "ubi.example.com/ubi9"
    pull-from-mirror = "digest-only"

  [[registry.mirror]]
    location = "blocked.example.net/ubi9"
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = "*.example.net"
  location = ""
  blocked = true

[[registry]]
  prefix = "*.insecure.example.org"
  location = ""
  insecure = true

[[registry]]
  prefix = ""
  location = "docker.io"

  [[registry.mirror]]
    location = "hub-mirror.example.com"
    insecure = true
`

const dgst = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// src is a compact expectation: "N kind reference [flags]" where N is the
// order or "-" for skipped, flags among blocked, insecure, skipped.
func summary(r *Result) []string {
	var out []string
	for _, s := range r.Sources {
		n := "-"
		if !s.Skipped {
			n = string(rune('0' + s.Order))
		}
		line := n + " " + s.Kind + " " + s.Reference
		if s.Blocked {
			line += " blocked:" + s.BlockedBy
		}
		if s.Insecure {
			line += " insecure"
		}
		out = append(out, line)
	}
	return out
}

func TestResolve(t *testing.T) {
	cases := []struct {
		name, image string
		entry       string // prefix of the matched entry, "" for none
		want        []string
		fails       bool
		short       bool
	}{
		{
			name: "digest pull with NeverContactSource uses the mirror, primary blocked", image: "quay.io/openshift-release-dev/ocp-release@" + dgst,
			entry: "quay.io/openshift-release-dev",
			want: []string{
				"1 mirror mirror.example.com/ocp/ocp-release@" + dgst,
				"2 primary quay.io/openshift-release-dev/ocp-release@" + dgst + " blocked:quay.io/openshift-release-dev",
			},
		},
		{
			name: "tag pull skips the digest-only mirror and hits the blocked primary", image: "quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64",
			entry: "quay.io/openshift-release-dev",
			want: []string{
				"- mirror mirror.example.com/ocp/ocp-release:4.16.0-x86_64",
				"1 primary quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64 blocked:quay.io/openshift-release-dev",
			},
			fails: true,
		},
		{
			name: "tag pull uses the tag-only mirror, skips the digest-only one", image: "registry.redhat.io/rhel8/postgresql-13:1",
			entry: "registry.redhat.io",
			want: []string{
				"- mirror mirror.example.com/redhat/rhel8/postgresql-13:1",
				"1 mirror tags.example.com/redhat/rhel8/postgresql-13:1",
				"2 primary registry.redhat.io/rhel8/postgresql-13:1",
			},
		},
		{
			name: "digest pull skips the tag-only mirror", image: "registry.redhat.io/rhel8/postgresql-13@" + dgst,
			entry: "registry.redhat.io",
			want: []string{
				"1 mirror mirror.example.com/redhat/rhel8/postgresql-13@" + dgst,
				"- mirror tags.example.com/redhat/rhel8/postgresql-13@" + dgst,
				"2 primary registry.redhat.io/rhel8/postgresql-13@" + dgst,
			},
		},
		{
			name: "nested scope wins by longest prefix; a mirror inside a blocked wildcard is never contacted", image: "registry.redhat.io/ubi9/ubi@" + dgst,
			entry: "registry.redhat.io/ubi9",
			want: []string{
				"1 mirror ubi.example.com/ubi9/ubi@" + dgst,
				"2 mirror blocked.example.net/ubi9/ubi@" + dgst + " blocked:*.example.net",
				"3 primary registry.redhat.io/ubi9/ubi@" + dgst,
			},
		},
		{
			name: "nested scope by tag", image: "registry.redhat.io/ubi9/ubi",
			entry: "registry.redhat.io/ubi9",
			want: []string{
				"- mirror ubi.example.com/ubi9/ubi:latest",
				"- mirror blocked.example.net/ubi9/ubi:latest",
				"1 primary registry.redhat.io/ubi9/ubi:latest",
			},
		},
		{
			name: "wildcard prefix: insecure, reference kept", image: "a.insecure.example.org/team/app:v1",
			entry: "*.insecure.example.org",
			want:  []string{"1 primary a.insecure.example.org/team/app:v1 insecure"},
		},
		{
			name: "wildcard blocked registry: the pull fails", image: "registry.example.net/x/y:1",
			entry: "*.example.net",
			want:  []string{"1 primary registry.example.net/x/y:1 blocked:*.example.net"},
			fails: true,
		},
		{
			name: "no entry matches", image: "ghcr.io/acme/tool:1.0",
			want: []string{"1 primary ghcr.io/acme/tool:1.0"},
		},
		{
			name: "docker.io normalisation of a short name", image: "nginx",
			entry: "docker.io", short: true,
			want: []string{
				"1 mirror hub-mirror.example.com/library/nginx:latest insecure",
				"2 primary docker.io/library/nginx:latest",
			},
		},
		{
			name: "docker.io without library", image: "docker.io/bitnami/redis:7",
			entry: "docker.io",
			want: []string{
				"1 mirror hub-mirror.example.com/bitnami/redis:7 insecure",
				"2 primary docker.io/bitnami/redis:7",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Resolve([]byte(conf), nil, c.image)
			if err != nil {
				t.Fatal(err)
			}
			got := summary(r)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			entry := ""
			if r.Entry != nil {
				entry = r.Entry.Prefix
			}
			if entry != c.entry {
				t.Errorf("entry %q, want %q", entry, c.entry)
			}
			if r.Fails != c.fails {
				t.Errorf("fails %t, want %t", r.Fails, c.fails)
			}
			if r.ShortName != c.short {
				t.Errorf("short %t, want %t", r.ShortName, c.short)
			}
			var buf bytes.Buffer
			if err := r.WriteText(&buf); err != nil || buf.Len() == 0 {
				t.Errorf("text: %v", err)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestShortNameUsesDropInSearchList(t *testing.T) {
	dropIn := []byte("unqualified-search-registries = [\"mirror.example.com\"]\n")
	r, err := Resolve([]byte(conf), dropIn, "busybox")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.SearchRegistries, ",") != "mirror.example.com" {
		t.Fatalf("search registries %q: the drop-in must override registries.conf", r.SearchRegistries)
	}
}

// A reference with both a tag and a digest is pulled the way CRI-O pulls
// it: containers/image's docker transport refuses the form, so CRI-O strips
// the tag first and the pull is by digest — digest-only mirrors apply,
// tag-only mirrors are skipped, and the rewritten references carry no tag.
func TestResolveTagAndDigestPullsByDigest(t *testing.T) {
	r, err := Resolve([]byte(conf), nil, "registry.redhat.io/rhel8/postgresql-13:1@"+dgst)
	if err != nil {
		t.Fatal(err)
	}
	if !r.ByDigest || r.Reference != "registry.redhat.io/rhel8/postgresql-13@"+dgst {
		t.Errorf("reference %q by digest %t, want the digest form without the tag", r.Reference, r.ByDigest)
	}
	var got []string
	for _, s := range r.Sources {
		got = append(got, fmt.Sprintf("%t %s", s.Skipped, s.Reference))
	}
	want := []string{
		"false mirror.example.com/redhat/rhel8/postgresql-13@" + dgst,
		"true tags.example.com/redhat/rhel8/postgresql-13@" + dgst,
		"false registry.redhat.io/rhel8/postgresql-13@" + dgst,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "drops the tag (:1)") {
		t.Errorf("no note about the dropped tag: %q", r.Notes)
	}
	if _, dropped, err := Parse("quay.io/a/b:1"); err != nil || dropped != "" {
		t.Errorf("a tag alone: dropped %q, %v", dropped, err)
	}
}

func TestResolveErrors(t *testing.T) {
	if _, err := Resolve([]byte(conf), nil, "UPPER/Case"); err == nil {
		t.Error("invalid reference accepted")
	}
	if _, err := Resolve([]byte("[[registry]]\nlocation = 3\n"), nil, "quay.io/a/b"); err == nil {
		t.Error("broken registries.conf accepted")
	}
}
