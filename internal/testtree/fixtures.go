package testtree

// Fixtures several packages' tests write verbatim. A test that needs a
// variation writes its own text rather than editing one of these, so a
// change here is a change to every test listed beside it.

// ReleaseIDMS mirrors the release payload to one mirror (build and
// cluster: the base of the generated site overlays).
const ReleaseIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example/ocp/release
`

// AppDeployment is a workload beside the mirror objects, one image and a
// ConfigMap reference (build and cluster: what makes a build full).
const AppDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
      - name: app
        image: quay.io/acme/app:v1
        envFrom:
        - configMapRef: {name: settings}
`

// AcmeIDMS mirrors quay.io/acme to one mirror (gitrev and impact: the
// first revision of a repository a test then changes).
const AcmeIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: acme
spec:
  imageDigestMirrors:
  - source: quay.io/acme
    mirrors:
    - mirror-a.example.com/acme
`

// PublicKeyData is a ClusterImagePolicy's publicKey.keyData: a
// base64-encoded PEM ECDSA P-256 public key, valid so the schema's and the
// rules' key checks pass (impact, schema, lint and the command).
const PublicKeyData = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFTGlnQ25sTE5LZ09nbFJUeDFEN0poSTdlUnc5OQpRb2xFOUpvNFFVeG5iTXk1blV1QkwrVVpGOXFxZm0vRGcxQk5lSFJUaEh6V2gya2k5dkFFZ1dFRE93PT0KLS0tLS1FTkQgUFVCTElDIEtFWS0tLS0tCg=="
