package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// workloadTree draws a tree in which image-pull-fails has much to say:
// plain directories (the apps cluster, a cluster layout) and a kustomize
// base with an overlay, whose files mix workloads pulling by tag and by
// digest, mirror sets that never contact their sources, the Image config
// blocking or allowing registries, ConfigMaps and Services, several to a
// file at times, and now and then a file that does not parse.
func workloadTree(t *testing.T, r *rand.Rand) (dir string, files []string) {
	sources := []string{"quay.io/acme", "quay.io/acme/app", "registry.example.com/team", "ghcr.io/acme"}
	images := func() string {
		img := sources[r.IntN(len(sources))] + fmt.Sprintf("/svc-%d", r.IntN(3))
		if r.IntN(2) == 0 {
			return img + ":v1"
		}
		return img + "@sha256:" + strings.Repeat(fmt.Sprint(r.IntN(10)), 64)
	}
	name := 0
	next := func() int { name++; return name }
	doc := func() string {
		switch r.IntN(10) {
		case 0:
			kind, field := "ImageDigestMirrorSet", "imageDigestMirrors"
			if r.IntN(3) == 0 {
				kind, field = "ImageTagMirrorSet", "imageTagMirrors"
			}
			s := fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: %s\nmetadata:\n  name: m%d\nspec:\n  %s:\n  - source: %s\n    mirrors: [mirror.example.net/m%d]\n", kind, next(), field, sources[r.IntN(len(sources))], r.IntN(3))
			if r.IntN(2) == 0 {
				s += "    mirrorSourcePolicy: NeverContactSource\n"
			}
			return s
		case 1:
			list := "blockedRegistries"
			if r.IntN(2) == 0 {
				list = "allowedRegistries"
			}
			return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n    %s: [%s]\n", list, strings.SplitN(sources[r.IntN(len(sources))], "/", 2)[0])
		case 2, 3:
			return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d%d\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: %s\n      - name: s\n        image: %s\n", next(), images(), images())
		case 4:
			return fmt.Sprintf("apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c%d\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: c\n            image: %s\n", next(), images())
		case 5:
			return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\nspec:\n  containers:\n  - name: c\n    image: %s  # mirrorlint:ignore image-pull-fails reviewed\n", next(), images())
		case 6:
			ns := "team"
			if r.IntN(2) == 0 {
				ns = "openshift-config"
			}
			return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n  namespace: %s\ndata:\n  mirror.example.net: |\n    -----BEGIN CERTIFICATE-----\n", next(), ns)
		case 8:
			// A policy delivering a workload and a mirror set: should the
			// loader keep either, the narrowed load must still agree.
			return fmt.Sprintf("apiVersion: policy.open-cluster-management.io/v1\nkind: Policy\nmetadata:\n  name: pol\n  namespace: ns\nspec:\n  policy-templates:\n  - objectDefinition:\n      apiVersion: policy.open-cluster-management.io/v1\n      kind: ConfigurationPolicy\n      metadata: {name: cp%d}\n      spec:\n        object-templates:\n        - complianceType: musthave\n          objectDefinition:\n            apiVersion: apps/v1\n            kind: Deployment\n            metadata: {name: wrapped}\n            spec: {template: {spec: {containers: [{name: c, image: %s}]}}}\n        - complianceType: musthave\n          objectDefinition:\n            apiVersion: config.openshift.io/v1\n            kind: ImageDigestMirrorSet\n            metadata: {name: wrapped}\n            spec: {imageDigestMirrors: [{source: %s, mirrors: [mirror.example.net/w], mirrorSourcePolicy: NeverContactSource}]}\n", next(), images(), sources[r.IntN(len(sources))])
		case 7:
			return fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: s%d\nspec:\n  ports: [{port: 80}]\n", next())
		}
		return fmt.Sprintf("apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: cs%d\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: %s\n", next(), images())
	}
	body := func() string {
		if r.IntN(25) == 0 {
			return "kind: [unclosed\n"
		}
		var docs []string
		for range 1 + r.IntN(3) {
			docs = append(docs, doc())
		}
		return strings.Join(docs, "---\n")
	}
	tree := map[string]string{}
	add := func(p string) {
		tree[p] = body()
		files = append(files, p)
	}
	for i := range 6 + r.IntN(6) {
		add(fmt.Sprintf("apps/team-%d/f%d.yaml", i%3, i))
	}
	for i := range 3 + r.IntN(3) {
		add(fmt.Sprintf("clusters/prod/f%d.yaml", i))
	}
	if r.IntN(2) == 0 {
		// A generator: the mirror sets it makes sit in its own file, and
		// the CatalogSource it delivers pulls an image its source CR
		// names (by tag, from a source the policy never contacts): the
		// object is the generator's, the image's line the source CR's.
		tree["apps/ztp/group.yaml"] = "apiVersion: ran.openshift.io/v1\nkind: PolicyGenTemplate\nmetadata:\n  name: group\n  namespace: ztp-group\nspec:\n  bindingRules:\n    group: \"\"\n  sourceFiles:\n  - fileName: IDMS.yaml\n    policyName: mirrors\n    spec:\n      imageDigestMirrors:\n      - source: quay.io/acme\n        mirrors: [mirror.example.net/gen]\n        mirrorSourcePolicy: NeverContactSource\n  - fileName: Catsrc.yaml\n    policyName: mirrors\n    metadata:\n      name: acme-index\n"
		tree["apps/ztp/source-crs/IDMS.yaml"] = "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: generated\nspec:\n  imageDigestMirrors:\n  - source: $source\n    mirrors: [$mirror]\n"
		tree["apps/ztp/source-crs/Catsrc.yaml"] = "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: default\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: quay.io/acme/index:v1\n"
		files = append(files, "apps/ztp/group.yaml", "apps/ztp/source-crs/IDMS.yaml", "apps/ztp/source-crs/Catsrc.yaml")
	}
	if r.IntN(2) == 0 {
		// An ACM policy kustomization: its PolicyGenerator reads a
		// manifest beside it that the kustomization does not list and a
		// directory of manifests below it, both applied through it.
		tree["acm/kustomization.yaml"] = "generators: [gen.yaml]\n"
		tree["acm/gen.yaml"] = "apiVersion: policy.open-cluster-management.io/v1\nkind: PolicyGenerator\nmetadata:\n  name: acm\npolicyDefaults:\n  namespace: acm\npolicies:\n- name: beside\n  manifests:\n  - path: beside.yaml\n- name: below\n  manifests:\n  - path: input\n"
		files = append(files, "acm/gen.yaml")
		add("acm/beside.yaml")
		add("acm/input/f.yaml")
	}
	var res []string
	for i := range 3 {
		p := fmt.Sprintf("k/base/r%d.yaml", i)
		add(p)
		res = append(res, filepath.Base(p))
	}
	tree["k/base/kustomization.yaml"] = "resources: [" + strings.Join(res, ", ") + "]\n"
	add("k/overlay/own.yaml")
	tree["k/overlay/kustomization.yaml"] = "resources: [../base, own.yaml]\n"
	return testtree.Write(t, tree), files
}

// given is Run on one file of dir, as the pre-commit hook runs it; with
// confined, its reads confined to dir as the command confines them.
func given(t *testing.T, checks *Checks, dir, file string, confined bool) *Result {
	t.Helper()
	req := Request{
		Options: project.Options{Paths: []string{filepath.Join(dir, file)}, Config: &config.Config{}, Root: dir},
		Context: dir,
	}
	if confined {
		req.Access = safefs.New(0, dir)
		req.Access.Allow(req.Paths...)
	}
	res, err := Run(context.Background(), checks, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// findingsJSON is what the formatters read of fs, one finding a line.
func findingsJSON(t *testing.T, fs []check.Finding) string {
	t.Helper()
	var lines []string
	for _, f := range fs {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// Linting one file (the pre-commit path) reports exactly the findings the
// run over the whole tree reports that touch the file, although of the
// plain files it does not report on it parses only those holding what is
// checked across objects: the workloads there are left unread unless the
// file holds a mirror set or an Image config that a finding about them
// may name. Both ways are taken, else the test proves nothing.
func TestGivenFileNeedsOnlyItsOwnWorkloads(t *testing.T) {
	t.Parallel()
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	narrowed, whole := 0, 0
	for seed := uint64(1); seed <= 16; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		dir, files := workloadTree(t, r)
		full, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: []string{dir}, Config: &config.Config{}, Root: dir}})
		if err != nil {
			t.Fatal(err)
		}
		sc := &scope{only: nil}
		for _, file := range files {
			sc.only = []string{manifest.RealPath(filepath.Join(dir, file))}
			want := findingsJSON(t, sc.filter(full.Findings))
			res := given(t, checks, dir, file, seed%2 == 0)
			// The notice that a cluster reading the file did not build is
			// the pre-commit path's own (unbuilt.go), on every given file.
			own := slices.DeleteFunc(slices.Clone(res.Findings), func(f check.Finding) bool {
				return strings.Contains(f.Message, ", which reads this file, is not checked: ")
			})
			if got := findingsJSON(t, own); got != want {
				t.Errorf("seed %d, %s:\ngot:\n%s\nwant (the whole tree's):\n%s", seed, file, got, want)
			}
			if strays(res, sc) > 0 {
				whole++
			} else if strings.HasPrefix(file, "apps/") && strays(full, sc) > 0 {
				narrowed++
			}
		}
	}
	t.Logf("%d runs left other files' workloads unread, %d read them", narrowed, whole)
	if narrowed == 0 || whole == 0 {
		t.Errorf("%d runs left other files' workloads unread, %d read them: both should happen", narrowed, whole)
	}
}

// strays counts the workloads a result's clusters hold from plain files
// outside sc: what a narrowed load leaves out.
func strays(res *Result, sc *scope) int {
	n := 0
	for _, c := range res.Contexts {
		if c == nil || c.Cluster == nil || !strings.Contains(c.Cluster.Name, "apps") {
			continue
		}
		for _, o := range c.Cluster.Objects {
			if o.Unmodelled && slices.Contains(manifest.ImageKinds(), string(o.Kind)) && !sc.covers(o.File) {
				n++
			}
		}
	}
	return n
}
