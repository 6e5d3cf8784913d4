// Package extramanifests finds the extra manifests a ZTP site's spoke is
// installed with, beside the objects openshift-install writes, as the
// component that picks them does, and reads their objects placed where
// each value is written:
//
//   - a SiteConfig cluster (ran.openshift.io/v1, the siteconfig-generator
//     of ztp-site-generate up to 4.20): with extraManifests.searchPaths
//     (4.14 and later), the files of each directory in order, a file
//     named like one of an earlier directory replacing it, and a .tmpl
//     file rendered once per node role as <role>-<name>; without it, the
//     ztp-site-generate container's own extra manifests (not in the
//     repository) and the files of extraManifestPath. The directories are
//     relative to the directory the generator runs in, which kustomize
//     makes the directory of the kustomization listing the SiteConfig
//     under generators; only a directory's own files are read (not its
//     subdirectories, nor a name starting with a dot), an empty file is
//     skipped, and only the first YAML document of a file is kept (the
//     generator decodes each file into one map). extraManifests.filter
//     then keeps or drops them by name (4.11 and later);
//   - a ClusterInstance (siteconfig.open-cluster-management.io/v1alpha1,
//     the SiteConfig operator): spec.extraManifestsRefs names ConfigMaps
//     of the site's namespace, which the operator copies to the
//     AgentClusterInstall's manifestsConfigMapRefs; assisted-service takes
//     every key of their data (not binaryData) as a manifest file, every
//     document of it. A ConfigMap is one of the tree's objects, or one a
//     kustomization generates from files (configMapGenerator), whose values
//     are then those files.
//
// assisted-service uploads each manifest under its name (the file name,
// or the ConfigMap key) and refuses a name that does not end in .yaml,
// .yml or .json (a .patch* name patches one of the installer's manifests),
// a YAML value it cannot parse, and a name two ConfigMaps both hold.
//
// API:
//
//	extramanifests.For(site, &Tree{...}) *Set  // what the site's spoke gets
//	set.Objects                                 // its objects, placed in their files
//	                                            // or on the ConfigMap's lines
//	set.Files, set.Dirs                         // what it reads (a commit of one
//	                                            // changes the spoke)
//	set.Problems                                // not-linted, refused, dropped
//	set.Refused                                 // the component refusing the site
//	SiteConfigDirs(doc)                         // the directories a SiteConfig's
//	                                            // generator reads, for discovery
package extramanifests
