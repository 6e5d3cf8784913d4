package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/migrate"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

func migrateCommand() *cli.Command {
	return &cli.Command{
		Name:      "migrate",
		Usage:     "convert ImageContentSourcePolicy objects to ImageDigestMirrorSets",
		ArgsUsage: "[PATH...]",
		Description: `Converts every ImageContentSourcePolicy under PATH (default .) to an
ImageDigestMirrorSet, like oc adm migrate icsp but reproducibly: the IDMS keeps the
ICSP's name, server-set metadata (uid, resourceVersion, generation, creationTimestamp,
managedFields, selfLink, the last-applied annotation) and status are dropped, each
entry keeps source and mirrors without a mirrorSourcePolicy (so the nodes render the
same registries.conf), and the YAML is 2-space indented. Comments travel with the
objects.

Where the IDMSs go:
  (default)      FILE.yaml gets a sibling FILE.idms.yaml with one IDMS per ICSP
  -o DIR         DIR/FILE.idms.yaml instead
  --in-place     each ICSP document is replaced inside its own file; the other
                 documents are kept byte for byte
Delete or replace the ICSP files yourself after the default or -o mode. In a kustomize
tree use --in-place: the kustomizations already list the files it rewrites, whereas
a new FILE.idms.yaml is applied by nothing until a kustomization lists it.

Tags and digests in sources and mirrors (old oc adm catalog mirror output pinned
every source to a digest), which the ImageDigestMirrorSet schema refuses, are
removed, and the entries that then name the same source are merged (mirrors in the
order MCO renders them); a note on stderr says so. An ICSP whose IDMS the API server
would still refuse (an upper-case repository, a scheme...) stops the migration at
its file:line:col, and nothing is written.

Existing files are not overwritten without --force. Files are written atomically.
--diff prints what would change as a unified diff and writes nothing.

Every file under PATH must load: a file that does not parse, or an object that does
not decode into its API type (an ICSP with a list where a string belongs, say), may
hold an ICSP that would be left behind. Then each problem is printed as
file:line:col on stderr and nothing is migrated, not even the files that load (a
half-migrated tree is harder to review than an untouched one); fix the file, or leave
it out with exclude: in .mirrorlint.yaml.

Exit codes: 0 done (or nothing to migrate); 2 usage error, unreadable input (nothing
is written), or an output file that exists without --force.

Examples:
  mirrorlint migrate --diff clusters/          # dry run: what would change
  mirrorlint migrate clusters/                 # clusters/x/icsp.yaml -> clusters/x/icsp.idms.yaml
  mirrorlint migrate -o idms/ clusters/        # idms/icsp.idms.yaml
  mirrorlint migrate --in-place clusters/prod  # the ICSP documents become IDMS in place
  mirrorlint migrate --force clusters/         # rerun, overwriting earlier .idms.yaml files`,
		Flags: []cli.Flag{
			configFlag(), maxFileSizeFlag(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the IDMS files into `DIR`"},
			&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "replace the ICSP documents inside their files"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite existing output files"},
			&cli.BoolFlag{Name: "diff", Usage: "dry run: print the unified diff of what would change, write nothing"},
		},
		Action: runMigrate,
	}
}

func runMigrate(c *cli.Context) error {
	opts := migrate.Options{OutDir: c.String("output"), InPlace: c.Bool("in-place")}
	if opts.InPlace && opts.OutDir != "" {
		return fail(exitUsage, "--in-place and -o cannot be combined")
	}
	paths := c.Args().Slice()
	for _, p := range paths {
		if p == stdinArg {
			return fail(exitUsage, "migrate rewrites files: it cannot read standard input")
		}
	}
	cfg, err := project.LoadConfig(projectOptions(c, gitTopLevel()))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, problems, err := migrate.Load(paths, manifest.Options{MaxFileSize: c.Int64(maxFileSizeName), Exclude: cfg.Exclude})
	if err != nil {
		return &project.UsageError{Err: err}
	}
	if len(problems) > 0 {
		for _, pr := range problems {
			fmt.Fprintf(c.App.ErrWriter, "%s: error: %s\n", where(pr.Pos), pr.Message)
		}
		return fail(exitUsage, "cannot migrate: %d input problem(s) (see above); nothing was written", len(problems))
	}
	changes, err := migrate.PlanFiles(files, opts)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if len(changes) == 0 {
		fmt.Fprintln(c.App.ErrWriter, "mirrorlint: no ImageContentSourcePolicy found")
		return nil
	}
	for _, ch := range changes {
		for _, n := range ch.Notes {
			fmt.Fprintf(c.App.ErrWriter, "mirrorlint: note: %s: %s\n", ch.From, n)
		}
	}
	if c.Bool("diff") {
		for _, ch := range changes {
			if _, err := io.WriteString(c.App.Writer, ch.Diff()); err != nil {
				return err
			}
		}
		return nil
	}
	if err := migrate.Apply(changes, c.Bool("force")); err != nil {
		var ee *migrate.ExistsError
		var le *migrate.LinkError
		if errors.As(err, &ee) || errors.As(err, &le) {
			return fail(exitUsage, "%v (nothing was written)", err)
		}
		return fail(exitUsage, "%v", err)
	}
	for _, ch := range changes {
		fmt.Fprintf(c.App.Writer, "wrote %s: ImageDigestMirrorSet %v from %s\n", ch.Path, ch.Names, ch.From)
		if ch.Path != ch.From {
			warnUnlisted(c, ch.Path)
		}
	}
	return nil
}

// warnUnlisted says so when a new file lands in a kustomization directory
// that does not list it.
func warnUnlisted(c *cli.Context, path string) {
	if k := migrate.UnlistedBy(path); k != "" {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: %s does not list %s, so kustomize applies the old ImageContentSourcePolicy and not the new file: in a kustomize tree run migrate --in-place instead (it converts the ICSP where the kustomization already lists it), or add the file to resources and remove the ICSP file\n", k, filepath.Base(path))
	}
}
