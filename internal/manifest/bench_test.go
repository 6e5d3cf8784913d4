package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

const benchFiles = 10000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchRepo generates, once per test binary, a repository shaped like a big
// GitOps monorepo: 95% ordinary workloads, 5% mirror objects.
func benchRepo(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "mirrorlint-bench-")
		if benchErr != nil {
			return
		}
		for i := 0; i < benchFiles && benchErr == nil; i++ {
			dir := filepath.Join(benchDir, fmt.Sprintf("apps/team-%02d/app-%03d", i%40, i/40))
			if benchErr = os.MkdirAll(dir, 0o755); benchErr != nil {
				return
			}
			var name, content string
			switch {
			case i%20 == 0:
				name, content = "mirrors.yaml", benchMirror(i)
			case i%5 == 1:
				name, content = "all.yaml", benchDeployment(i)+"---\n"+benchService(i)+"---\n"+benchConfigMap(i)
			case i%5 == 2:
				name, content = "service.yaml", benchService(i)
			case i%5 == 3:
				name, content = "configmap.yaml", benchConfigMap(i)
			default:
				name, content = "deployment.yaml", benchDeployment(i)
			}
			benchErr = os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func BenchmarkLoad10k(b *testing.B) {
	dir := benchRepo(b)
	b.ReportAllocs()
	b.ResetTimer()
	var s *Set
	for i := 0; i < b.N; i++ {
		s = mustLoad(b, []string{dir}, Options{})
	}
	b.StopTimer()
	if len(s.Files) != benchFiles || len(s.Objects) != benchFiles/20*2 || len(s.Problems) != 0 {
		b.Fatalf("files %d objects %d problems %v", len(s.Files), len(s.Objects), s.Problems)
	}
	b.ReportMetric(float64(benchFiles)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-live-after")
	runtime.KeepAlive(s)
}

func benchDeployment(i int) string {
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

func benchService(i int) string {
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

func benchConfigMap(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-%d-config\n  namespace: team-%d\ndata:\n", i, i%40)
	b.WriteString("  app.yaml: |\n")
	for k := 0; k < 20; k++ {
		fmt.Fprintf(&b, "    setting%02d: value-%d-%d  # tuned for production\n", k, i, k)
	}
	b.WriteString("  LOG_FORMAT: json\n  FEATURE_FLAGS: \"a,b,c\"\n")
	return b.String()
}

func benchMirror(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: mirrors-%d\nspec:\n  imageDigestMirrors:\n", i)
	for k := 0; k < 10; k++ {
		fmt.Fprintf(&b, "  - source: quay.io/org-%d/repo-%d\n    mirrors:\n    - mirror.example.com:5000/org-%d/repo-%d\n    - backup.example.com/org-%d/repo-%d\n", i, k, i, k, i, k)
	}
	fmt.Fprintf(&b, "---\napiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: tags-%d\nspec:\n  imageTagMirrors:\n  - source: quay.io/org-%d/tools\n    mirrors: [mirror.example.com:5000/org-%d/tools]\n", i, i, i)
	return b.String()
}
