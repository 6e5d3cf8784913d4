// Package render computes the container-runtime files the Machine Config
// Operator (MCO) writes to every node of an OpenShift cluster from the
// cluster's image-mirroring objects, byte for byte, or the refusal MCO logs
// instead.
//
// # The model
//
// MCO's image-config sync reads the cluster's ImageContentSourcePolicy,
// ImageDigestMirrorSet and ImageTagMirrorSet objects, the spec of
// Image/cluster (insecure, blocked, allowed and search registries) and the
// release payload the cluster runs. It validates them, merges the mirror
// lists of every source into one order (a topological sort whose ties, and
// whose cycles, are broken alphabetically), propagates insecure and blocked
// flags to nested scopes, and encodes /etc/containers/registries.conf, the
// search-registries drop-in and /etc/containers/policy.json. Render follows
// the same steps, release by release: Input.Version picks the encoding and
// the checks of that OpenShift release.
//
// When MCO gives up it does not mark anything Degraded: it logs the reason,
// keeps the previous MachineConfig, and every later registry change silently
// stops applying. Render returns that as a *Refusal whose Reason is MCO's
// own message and whose Subject names the offending value. What MCO logs
// while still rendering (a blocked registry that holds the release payload
// is dropped, for instance) is in Output.Warnings.
//
// When MCO has nothing to write, nodes keep the files of the machine-config
// template; Output.Generated is then false and Output.RegistriesConf holds
// the template's bytes.
//
// # Stability
//
// The API is v0: it may still change until the module is tagged v1.
package render
