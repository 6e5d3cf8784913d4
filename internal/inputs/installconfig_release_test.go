package inputs

import (
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/render"
)

// An install-config read as 4.12 or 4.13 (--openshift-version) meets an
// installer without imageDigestSources: it warns and drops the list, so a
// file writing both lists is not refused and gets the ICSPs of
// imageContentSources, which that installer does not call deprecated.
func TestInstallConfigDigestSourcesBefore414(t *testing.T) {
	both := contentSourcesConfig + "imageDigestSources:\n- source: quay.io/c\n  mirrors: [m.example.com/c]\n"
	for _, tc := range []struct {
		v       render.Version
		objects []string
		rules   []string
	}{
		{render.Version{Minor: 13, Patch: 30}, []string{"ImageContentSourcePolicy/image-policy-0", "ImageContentSourcePolicy/image-policy-1"}, []string{RuleInstallUnknownField}},
		{render.Version{}, nil, []string{RuleInstallBothLists}},
	} {
		res := readTree(t, map[string]string{"install-config.yaml": both}, tc.v)
		var rules []string
		for _, f := range rulesOf(res, RuleInstallUnknownField, RuleInstallBothLists, RuleInstallDeprecated) {
			rules = append(rules, f.Rule)
			if f.Rule == RuleInstallUnknownField && (f.Pos.Line != 10 || !strings.Contains(f.Message, `imageDigestSources is not read by openshift-install 4.13.30 (the field exists from 4.14): it warns "failed to parse first occurrence of unknown field" and drops it`)) {
				t.Errorf("%v: %v", tc.v, f)
			}
		}
		c := res.Clusters[0]
		if got := objectNames(c); !slices.Equal(got, tc.objects) || !slices.Equal(rules, tc.rules) || c.Refused != (tc.objects == nil) {
			t.Errorf("%v: objects %v, findings %v, refused %v; want %v, %v", tc.v, got, rules, c.Refused, tc.objects, tc.rules)
		}
	}
}
