// Package benchrepo generates the GitOps repository the benchmarks share:
// a big cluster repository where 95% of the files are ordinary workloads
// (Deployments, Services, ConfigMaps of realistic size, some multi-document)
// and 5% hold mirror objects, plus a kustomize base and four overlays that
// build it into clusters. It writes files only and imports nothing from
// mirrorlint, so any package's tests (manifest's own included) can use it.
//
// It is a non-test package because test files of different packages cannot
// share code; only _test.go files import it.
package benchrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Overlays are the kustomize overlays of every generated repository, each
// a top-level kustomization on ../../base.
var Overlays = []string{"dev", "prod", "qa", "stage"}

// Repo describes one generated repository, with the counts benchmarks
// check their results against.
type Repo struct {
	Dir string
	// Files is the number of manifest files written (kustomization and
	// patch files included): what manifest.Load reads.
	Files int
	// MirrorFiles hold mirror objects; MirrorObjects is how many mirror
	// objects a plain manifest.Load of Dir finds (two per mirror file: an
	// ImageDigestMirrorSet with 10 entries and an ImageTagMirrorSet).
	MirrorFiles   int
	MirrorObjects int
	// Clusters is what cluster discovery finds: one per overlay plus the
	// files no kustomization reaches (apps/).
	Clusters int
}

var (
	mu    sync.Mutex
	repos = map[int]*Repo{}
	errs  = map[int]error{}
)

// Get returns the repository of files files, generating it on first use:
// once per test binary, since writing 10,000 files costs more than most of
// the benchmarks that read them. Call Cleanup from TestMain.
func Get(files int) (*Repo, error) {
	mu.Lock()
	defer mu.Unlock()
	if r, ok := repos[files]; ok {
		return r, errs[files]
	}
	r, err := generate(files)
	repos[files], errs[files] = r, err
	return r, err
}

// Cleanup removes every repository Get and GetSites generated.
func Cleanup() {
	cleanupSites()
	mu.Lock()
	defer mu.Unlock()
	for k, r := range repos {
		if r != nil && r.Dir != "" {
			os.RemoveAll(r.Dir)
		}
		delete(repos, k)
	}
}

type writer struct {
	r   *Repo
	err error
}

func (w *writer) put(rel, text string, mirror bool) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.r.Dir, filepath.FromSlash(rel))
	if w.err = os.MkdirAll(filepath.Dir(p), 0o755); w.err != nil {
		return
	}
	w.err = os.WriteFile(p, []byte(text), 0o644)
	w.r.Files++
	if mirror {
		w.r.MirrorFiles++
		w.r.MirrorObjects += 2
	}
}

// workload writes the i-th ordinary workload file under dir and returns
// its name: the same 5-way mix as a real repository, one file in five a
// multi-document Deployment + Service + ConfigMap.
func (w *writer) workload(dir string, i int) string {
	var name, content string
	switch i % 5 {
	case 1:
		name, content = "all.yaml", Deployment(i)+"---\n"+Service(i)+"---\n"+ConfigMap(i)
	case 2:
		name, content = "service.yaml", Service(i)
	case 3:
		name, content = "configmap.yaml", ConfigMap(i)
	default:
		name, content = "deployment.yaml", Deployment(i)
	}
	name = fmt.Sprintf("app-%d-%s", i, name)
	w.put(dir+"/"+name, content, false)
	return name
}

func generate(files int) (*Repo, error) {
	dir, err := os.MkdirTemp("", "mirrorlint-benchrepo-")
	if err != nil {
		return nil, err
	}
	r := &Repo{Dir: dir, Clusters: len(Overlays) + 1}
	w := &writer{r: r}
	// Workload numbers of the kustomize trees start high so that object
	// names never collide with apps/.
	n := 1_000_000

	// The base: 40 resources, 2 of them mirror files.
	var res []string
	for k := 0; k < 40; k++ {
		if k%20 == 0 {
			f := fmt.Sprintf("mirrors-%d.yaml", n)
			w.put("base/"+f, Mirror(n), true)
			res = append(res, f)
		} else {
			res = append(res, w.workload("base", n))
		}
		n++
	}
	base0 := 1_000_000 // the base's first mirror file, patched by every overlay
	w.put("base/kustomization.yaml", kustomization(res, nil), false)

	// Each overlay: the base, 12 workloads and a mirror file of its own, a
	// strategic-merge patch on a base Deployment and a JSON 6902 patch on
	// the base's ImageDigestMirrorSet.
	for _, o := range Overlays {
		res := []string{"../../base"}
		od := "overlays/" + o
		for k := 0; k < 12; k++ {
			res = append(res, w.workload(od, n))
			n++
		}
		f := fmt.Sprintf("mirrors-%d.yaml", n)
		w.put(od+"/"+f, Mirror(n), true)
		res = append(res, f)
		n++
		w.put(od+"/replicas.yaml", fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-%d\n  namespace: team-%d\nspec:\n  replicas: 5\n", base0+1, (base0+1)%40), false)
		w.put(od+"/never-contact.yaml", "- op: add\n  path: /spec/imageDigestMirrors/0/mirrorSourcePolicy\n  value: NeverContactSource\n", false)
		patches := []string{
			"  - path: replicas.yaml",
			fmt.Sprintf("  - path: never-contact.yaml\n    target:\n      kind: ImageDigestMirrorSet\n      name: mirrors-%d", base0),
		}
		w.put(od+"/kustomization.yaml", kustomization(res, patches), false)
	}

	// apps/: everything else, files no kustomization reaches (Argo CD
	// applications of plain directories); every 20th is a mirror file.
	for i := 0; r.Files < files && w.err == nil; i++ {
		d := fmt.Sprintf("apps/team-%02d/app-%03d", i%40, i/40)
		if i%20 == 0 {
			w.put(d+"/mirrors.yaml", Mirror(i), true)
			continue
		}
		w.workload(d, i)
	}
	if w.err != nil {
		os.RemoveAll(dir)
		return nil, w.err
	}
	return r, nil
}

func kustomization(resources, patches []string) string {
	var b strings.Builder
	b.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n")
	for _, r := range resources {
		fmt.Fprintf(&b, "  - %s\n", r)
	}
	if len(patches) > 0 {
		b.WriteString("patches:\n")
		for _, p := range patches {
			b.WriteString(p + "\n")
		}
	}
	return b.String()
}

// Deployment is a realistic Deployment (about 60 lines: labels, probes,
// resources, a volume) for workload i.
func Deployment(i int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%[1]d
  namespace: team-%[2]d
  labels:
    app.kubernetes.io/name: app-%[1]d
    app.kubernetes.io/part-of: team-%[2]d
    app.kubernetes.io/managed-by: argocd
  annotations:
    argocd.argoproj.io/sync-wave: "2"
spec:
  replicas: 3
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: app-%[1]d
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%%, maxUnavailable: 0}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: app-%[1]d
    spec:
      serviceAccountName: app-%[1]d
      securityContext:
        runAsNonRoot: true
        seccompProfile: {type: RuntimeDefault}
      containers:
      - name: app
        image: quay.io/example/app-%[1]d@sha256:%064[1]d
        imagePullPolicy: IfNotPresent
        args: ["--port=8080", "--log-level=info", "--metrics"]
        ports:
        - {name: http, containerPort: 8080, protocol: TCP}
        - {name: metrics, containerPort: 9090, protocol: TCP}
        env:
        - name: DATABASE_URL
          valueFrom:
            secretKeyRef: {name: app-%[1]d-db, key: url}
        - name: CACHE_SIZE
          value: "512"
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {cpu: "1", memory: 512Mi}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
          periodSeconds: 10
        livenessProbe:
          httpGet: {path: /livez, port: http}
          initialDelaySeconds: 15
        volumeMounts:
        - {name: config, mountPath: /etc/app, readOnly: true}
      volumes:
      - name: config
        configMap: {name: app-%[1]d-config}
`, i, i%40)
}

// Service is the Service of workload i.
func Service(i int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: app-%[1]d
  namespace: team-%[2]d
  labels:
    app.kubernetes.io/name: app-%[1]d
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: app-%[1]d
  ports:
  - name: http
    port: 80
    targetPort: http
  - name: metrics
    port: 9090
    targetPort: metrics
`, i, i%40)
}

// ConfigMap is the ConfigMap of workload i, with an embedded config file.
func ConfigMap(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-%d-config\n  namespace: team-%d\ndata:\n", i, i%40)
	b.WriteString("  app.yaml: |\n")
	for k := 0; k < 20; k++ {
		fmt.Fprintf(&b, "    setting%02d: value-%d-%d  # tuned for production\n", k, i, k)
	}
	b.WriteString("  LOG_FORMAT: json\n  FEATURE_FLAGS: \"a,b,c\"\n")
	return b.String()
}

// Mirror is a mirror file: an ImageDigestMirrorSet of 10 sources with two
// mirrors each, and an ImageTagMirrorSet, named after i.
func Mirror(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: mirrors-%d\nspec:\n  imageDigestMirrors:\n", i)
	for k := 0; k < 10; k++ {
		fmt.Fprintf(&b, "  - source: quay.io/org-%d/repo-%d\n    mirrors:\n    - mirror.example.com:5000/org-%d/repo-%d\n    - backup.example.com/org-%d/repo-%d\n", i, k, i, k, i, k)
	}
	fmt.Fprintf(&b, "---\napiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: tags-%d\nspec:\n  imageTagMirrors:\n  - source: quay.io/org-%d/tools\n    mirrors: [mirror.example.com:5000/org-%d/tools]\n", i, i, i)
	return b.String()
}
