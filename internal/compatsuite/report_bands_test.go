package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwright/hookwright/compat"
)

// TestReportHasEveryBand keeps compat/REPORT.md's "Every band's manifest at
// its edge" table in step with the bands: one row per band, in order, so a
// moved edge (a bisection) cannot leave the report on the old bands.
func TestReportHasEveryBand(t *testing.T) {
	report, err := os.ReadFile(filepath.Join("..", "..", "compat", "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(report), "## Every band's manifest at its edge")
	if !ok {
		t.Fatal(`compat/REPORT.md has no "Every band's manifest at its edge" section; run make compat`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var got []string
	for _, l := range strings.Split(section, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 3 || !strings.HasPrefix(l, "| ") || strings.TrimSpace(cells[1]) == "band" {
			continue
		}
		got = append(got, strings.TrimSpace(cells[1]))
	}
	var want []string
	for _, b := range compat.Bands() {
		want = append(want, b.String())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("compat/REPORT.md's band rows are %v; the bands are %v; run make compat", got, want)
	}
}
