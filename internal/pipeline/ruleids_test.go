package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/policy"
)

// notRuleIDs are the hyphenated words the README, rule docs and messages
// put in backquotes that are not rule ids: origins, tools, registries.conf
// keys and example names. Anything else in backquotes that looks like a
// rule id must be one.
var notRuleIDs = map[string]bool{
	"api-server": true, "pre-commit": true, "mirror-by-digest-only": true, "pull-from-mirror": true,
	"unqualified-search-registries": true, "short-name-mode": true, "digest-only": true, "tag-only": true,
	"ocp-release": true, "50-worker-registries": true, "99-worker-zz": true, "fetch-depth": true,
	"object-templates-raw": true, "policy-templates": true, "object-templates": true,
	"image-digest-mirror": true, // the ImageDigestMirrorSet openshift-install creates
}

// ruleMentions finds what text names as rule ids: backquoted hyphenated
// words, and the ids in `mirrorlint rules ID`, inline ignore comments,
// ignore annotations, config ignore entries and config rule severities.
var ruleMentions = []*regexp.Regexp{
	regexp.MustCompile("`([a-z0-9]{2,}(?:-[a-z0-9]+)+)`"),
	regexp.MustCompile(`mirrorlint rules ([a-z0-9]{2,}(?:-[a-z0-9]+)+)`),
	regexp.MustCompile(`mirrorlint:ignore ([a-z0-9]{2,}(?:-[a-z0-9]+)+)`),
	regexp.MustCompile(`mirrorlint\.io/ignore:\s*"?([a-z0-9]{2,}(?:-[a-z0-9]+)+):`),
	regexp.MustCompile(`(?m)^\s*-?\s*rule:\s*([a-z0-9]{2,}(?:-[a-z0-9]+)+)\s*$`),
	regexp.MustCompile(`(?m)^\s+([a-z0-9]{2,}(?:-[a-z0-9]+)+):\s*"?(?:off|error|warning|info)"?\s*(?:#.*)?$`),
	regexp.MustCompile(`\{([a-z0-9]{2,}(?:-[a-z0-9]+)+): (?:off|error|warning|info)\}`),
}

func mentionedIDs(text string) []string {
	var out []string
	for _, re := range ruleMentions {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if !notRuleIDs[m[1]] {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// Every rule id the README and docs/, the rules' documentation or a finding's
// message names is a rule `mirrorlint rules` lists (so the config accepts
// it), and every finding is reported under a registered rule.
func TestEveryMentionedRuleIDExists(t *testing.T) {
	t.Parallel()
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	reg := checks.Rules
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append([]string{"../../README.md", "../../CONTRIBUTING.md"}, docs...)
	unknown := map[string][]string{}
	check := func(where, text string) {
		for _, id := range mentionedIDs(text) {
			if reg.Get(id) == nil {
				unknown[id] = append(unknown[id], where)
			}
		}
	}
	for _, d := range docs {
		text, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		check(strings.TrimPrefix(d, "../../"), string(text))
	}
	for _, r := range reg.All() {
		check("rule "+r.ID+" doc", r.Summary+"\n"+r.Doc)
	}
	// Findings from every fixture, the copied corpus and the real-world trees.
	dirs, _ := filepath.Glob("../rules/testdata/*/*")
	more, _ := filepath.Glob(filepath.Join(corpus.SharedRoot, "realworld", "[0-9]*"))
	dirs = append(dirs, more...)
	if len(dirs) < 50 {
		t.Fatalf("only %d fixture directories", len(dirs))
	}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		for _, f := range lintTree(t, nil, dir) {
			if reg.Get(f.Rule) == nil {
				unknown[f.Rule] = append(unknown[f.Rule], "a finding in "+dir)
			}
			check("a "+f.Rule+" message in "+dir, f.Message)
		}
	}
	ids := make([]string, 0, len(unknown))
	for id := range unknown {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("%q is named as a rule but `mirrorlint rules` does not list it (in %s)", id, strings.Join(unknown[id][:min(3, len(unknown[id]))], "; "))
	}
}
