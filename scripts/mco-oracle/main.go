// Command mco-oracle compares mirrorlint's renderer with MCO's own code on
// random clusters (see README.md; oracle.sh builds the MCO side and runs
// this). It writes every case as manifests plus the typed objects
// mirrorlint's loader made of them (case.json), runs the driver built from
// an MCO release branch over them, renders them with mirrorlint, and
// reports where the two disagree: the error, the bytes of each node file,
// the ImagePolicy statuses and the logged warnings.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/internal/randcluster"
	"github.com/mirrorlint/mirrorlint/render"
)

// oracleCase is the driver's input (OracleCase in driver/oracle.go).
type oracleCase struct {
	ReleaseImage         string                           `json:"releaseImage"`
	Image                configv1.ImageSpec               `json:"image"`
	ICSPs                any                              `json:"icsps"`
	IDMSs                []*configv1.ImageDigestMirrorSet `json:"idmss"`
	ITMSs                []*configv1.ImageTagMirrorSet    `json:"itmss"`
	ClusterImagePolicies []*configv1.ClusterImagePolicy   `json:"clusterImagePolicies"`
	ImagePolicies        []*configv1.ImagePolicy          `json:"imagePolicies"`
}

// oracleResult is the driver's output (OracleResult in driver/oracle.go).
type oracleResult struct {
	Error    string            `json:"error"`
	Files    map[string][]byte `json:"files"`
	Warnings []string          `json:"warnings"`
	Statuses []string          `json:"statuses"`
}

type options struct {
	version, driver, templates, work string
	n                                int
	seed                             uint64
	show                             int
}

func main() {
	var o options
	flag.StringVar(&o.version, "version", "4.21", "OpenShift release the driver was built from")
	flag.IntVar(&o.n, "n", 2000, "number of random cases")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.StringVar(&o.driver, "driver", "", "the mirrorlint-oracle binary built from an MCO tree")
	flag.StringVar(&o.templates, "templates", "", "the MCO tree's templates directory")
	flag.StringVar(&o.work, "work", "", "directory for the cases (default: a temporary one)")
	flag.IntVar(&o.show, "show", 5, "divergences shown in full")
	flag.Parse()
	if o.driver == "" || o.templates == "" {
		fmt.Fprintln(os.Stderr, "mco-oracle: -driver and -templates are required (run it through oracle.sh)")
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "mco-oracle:", err)
		os.Exit(1)
	}
}

// localCase is one generated case with mirrorlint's view of it.
type localCase struct {
	dir   string
	input *check.Input
}

func run(o options) error {
	v, err := render.ParseVersion(o.version)
	if err != nil {
		return err
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "mco-oracle-cases"); err != nil {
			return err
		}
		defer os.RemoveAll(o.work)
	}
	r := rand.New(rand.NewPCG(o.seed, uint64(v.Minor)))
	var cases []localCase
	for i := 0; i < o.n; i++ {
		c, err := writeCase(filepath.Join(o.work, fmt.Sprintf("%05d", i)), randcluster.Generate(r, randcluster.Options{Minor: v.Minor}), v)
		if err != nil {
			return err
		}
		cases = append(cases, c)
	}
	cmd := exec.Command(o.driver, o.templates, o.work)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("driver: %w", err)
	}

	tally := map[string]int{}
	var diverged []string
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(c.dir, "mco.json"))
		if err != nil {
			return err
		}
		var mco oracleResult
		if err := json.Unmarshal(data, &mco); err != nil {
			return err
		}
		verdict, diffs := compare(c, &mco)
		tally[verdict]++
		if len(diffs) > 0 {
			diverged = append(diverged, fmt.Sprintf("%s (%s):\n  %s", c.dir, verdict, strings.Join(diffs, "\n  ")))
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(tally)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, tally[k]))
	}
	fmt.Printf("OpenShift %s: %d random cases, seed %d: %s\n", v, len(cases), o.seed, strings.Join(parts, ", "))
	for i, d := range diverged {
		if i == o.show {
			fmt.Printf("... %d more divergent cases\n", len(diverged)-o.show)
			break
		}
		fmt.Println(d)
	}
	if len(diverged) > 0 {
		return fmt.Errorf("%d of %d cases diverge from MCO", len(diverged), len(cases))
	}
	return nil
}

// writeCase writes the manifests, loads them as mirrorlint does, and
// writes the driver's case.json from the loaded objects (the default
// policy included when mirrorlint assumes it).
func writeCase(dir string, rc randcluster.Cluster, v render.Version) (localCase, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return localCase{}, err
	}
	file := filepath.Join(dir, "manifests.yaml")
	if err := os.WriteFile(file, []byte(rc.Manifests), 0o644); err != nil {
		return localCase{}, err
	}
	set, err := manifest.Load([]string{file}, manifest.Options{Workers: 1})
	if err != nil {
		return localCase{}, err
	}
	if errs := manifest.Errors(set.Problems); len(errs) > 0 {
		return localCase{}, fmt.Errorf("%s: generated manifests do not load: %v", file, errs)
	}
	in := check.BuildInput(set.Objects, cluster.Settings{Version: v, ReleaseImage: rc.ReleaseImage})
	oc := oracleCase{ReleaseImage: in.ReleaseImage, ICSPs: in.ICSPs, IDMSs: in.IDMSs, ITMSs: in.ITMSs, ImagePolicies: in.ImagePolicies}
	if in.Image != nil {
		oc.Image = *in.Image
	}
	for _, p := range in.ClusterImagePolicies {
		if !(in.DefaultPolicy && p.Name == render.DefaultPolicyName) {
			oc.ClusterImagePolicies = append(oc.ClusterImagePolicies, p)
		}
	}
	if in.DefaultPolicy {
		oc.ClusterImagePolicies = append(oc.ClusterImagePolicies, render.DefaultClusterImagePolicy())
	}
	// MCO's listers hand objects out in no fixed order; both sides get
	// them sorted by name (order-dependent answers are compared apart).
	sort.SliceStable(oc.ClusterImagePolicies, func(a, b int) bool { return oc.ClusterImagePolicies[a].Name < oc.ClusterImagePolicies[b].Name })
	sort.SliceStable(oc.ImagePolicies, func(a, b int) bool {
		x, y := oc.ImagePolicies[a], oc.ImagePolicies[b]
		return x.Namespace < y.Namespace || x.Namespace == y.Namespace && x.Name < y.Name
	})
	data, err := json.Marshal(oc)
	if err != nil {
		return localCase{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "case.json"), data, 0o644); err != nil {
		return localCase{}, err
	}
	return localCase{dir: dir, input: in}, nil
}

// compare renders c with mirrorlint and lists what differs from MCO's
// result; the verdict names the kind of case ("rendered", "refused",
// "order-dependent", "diverged").
func compare(c localCase, mco *oracleResult) (string, []string) {
	out, err := render.Render(c.input.Input)
	var diffs []string
	var statuses []render.ImagePolicyStatus
	var ref *render.Refusal
	switch {
	case errors.As(err, &ref):
		statuses = ref.ImagePolicyStatuses
		if mco.Error == "" {
			return "diverged", []string{"mirrorlint refuses, MCO renders: " + ref.Error()}
		}
		if tempPath.ReplaceAllString(ref.Error(), "TEMP") != tempPath.ReplaceAllString(mco.Error, "TEMP") {
			if orderDependent(c.input.Input, ref, mco.Error) {
				return "order-dependent", nil
			}
			diffs = append(diffs, fmt.Sprintf("refusal:\n    mirrorlint %q\n    MCO        %q", ref.Error(), mco.Error))
		}
	case err != nil:
		return "diverged", []string{"mirrorlint: " + err.Error()}
	default:
		statuses = out.ImagePolicyStatuses
		if mco.Error != "" {
			return "diverged", []string{"MCO refuses, mirrorlint renders: " + mco.Error}
		}
		diffs = append(diffs, compareFiles(out, mco.Files)...)
		var warns []string
		for _, w := range out.Warnings {
			warns = append(warns, w.Message)
		}
		if tempPath.ReplaceAllString(strings.Join(warns, "\n"), "TEMP") != tempPath.ReplaceAllString(strings.Join(mco.Warnings, "\n"), "TEMP") {
			diffs = append(diffs, fmt.Sprintf("warnings:\n    mirrorlint %q\n    MCO        %q", warns, mco.Warnings))
		}
	}
	var got []string
	for _, s := range statuses {
		got = append(got, s.String())
	}
	if strings.Join(got, "\n") != strings.Join(mco.Statuses, "\n") {
		diffs = append(diffs, fmt.Sprintf("ImagePolicy statuses:\n    mirrorlint %q\n    MCO        %q", got, mco.Statuses))
	}
	switch {
	case len(diffs) > 0:
		return "diverged", diffs
	case err != nil:
		return "refused", nil
	}
	return "rendered", nil
}

// tempPath is the name of the temporary registries.conf MCO loads, which
// appears in a loading error and differs from run to run.
var tempPath = regexp.MustCompile(`"[^"]*(regtemp|mirrorlint-payload-)[^"]*"`)

// orderDependent reports whether MCO named another of the scopes it would
// refuse: it walks a Go map, so which one it names varies from run to run.
func orderDependent(in render.Input, ref *render.Refusal, mcoError string) bool {
	// The registries.d step walks the policy scopes in map order too: when
	// both stop there, MCO's answer is confirmed by rendering with only the
	// policies that hold the scope MCO names.
	const sigstore = "error adding clusterimagepolicy scope "
	if strings.HasPrefix(ref.Reason, sigstore) && strings.HasPrefix(mcoError, sigstore) {
		scope, _, _ := strings.Cut(strings.TrimPrefix(mcoError, sigstore), " ")
		_, err := render.Render(onlyScope(in, scope))
		return err != nil && err.Error() == mcoError
	}
	prefix := ref.Prefix + ": "
	if ref.Prefix == "" || !strings.HasPrefix(mcoError, prefix) {
		return false
	}
	for _, f := range mco.NewPlan(in).PolicyScopeFindings() {
		if f.Message == strings.TrimPrefix(mcoError, prefix) {
			return true
		}
	}
	return false
}

// onlyScope is in with one signature policy: a copy of the first one that
// lists scope (the default policy for its scope), holding only that scope.
func onlyScope(in render.Input, scope string) render.Input {
	out := in
	out.ClusterImagePolicies, out.ImagePolicies, out.DefaultPolicy = nil, nil, false
	if in.DefaultPolicy && scope == render.DefaultPolicyScope {
		out.DefaultPolicy = true
		return out
	}
	for _, p := range in.ClusterImagePolicies {
		if slices.Contains(p.Spec.Scopes, configv1.ImageScope(scope)) {
			c := p.DeepCopy()
			c.Spec.Scopes = []configv1.ImageScope{configv1.ImageScope(scope)}
			out.ClusterImagePolicies = []*configv1.ClusterImagePolicy{c}
			return out
		}
	}
	for _, p := range in.ImagePolicies {
		if slices.Contains(p.Spec.Scopes, configv1.ImageScope(scope)) {
			c := p.DeepCopy()
			c.Spec.Scopes = []configv1.ImageScope{configv1.ImageScope(scope)}
			out.ImagePolicies = []*configv1.ImagePolicy{c}
			return out
		}
	}
	return out
}

// compareFiles compares the files of the MachineConfig, by node path.
func compareFiles(out *render.Output, mco map[string][]byte) []string {
	got := map[string][]byte{}
	if out.Generated {
		got[nodefiles.RegistriesConfPath] = out.RegistriesConf
	}
	add := func(path string, data []byte) {
		if data != nil {
			got[path] = data
		}
	}
	add(nodefiles.PolicyJSONPath, out.PolicyJSON)
	add(nodefiles.SearchDropInPath, out.SearchRegistriesConf)
	add(nodefiles.SigstoreRegistriesPath, out.SigstoreRegistriesYAML)
	for ns, data := range out.CRIOPolicies {
		got[nodefiles.CRIOPolicyPath(ns)] = data
	}
	var diffs []string
	paths := maps.Clone(got)
	maps.Copy(paths, mco)
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		g, inGot := got[p]
		m, inMCO := mco[p]
		switch {
		case !inGot:
			diffs = append(diffs, p+": MCO writes it, mirrorlint does not")
		case !inMCO:
			diffs = append(diffs, p+": mirrorlint writes it, MCO does not")
		case !bytes.Equal(g, m):
			diffs = append(diffs, fmt.Sprintf("%s differs:\n--- mirrorlint\n%s\n--- MCO\n%s", p, g, m))
		}
	}
	return diffs
}
