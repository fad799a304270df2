package live

import (
	"testing"
)

// TestDoctorFindsTheFolderMarketplacePlugin installs from a folder
// marketplace on releases around the edge where Claude Code stopped
// copying such a plugin to its cache and started running it in place, and
// checks that hookgen doctor's idea of the plugin root is the folder the
// loader read hooks.json from (installedRoot compares the two). The
// debug log must name that folder, or nothing was compared.
func TestDoctorFindsTheFolderMarketplacePlugin(t *testing.T) {
	Available(t)
	for _, v := range []string{"2.1.100", "2.1.101", "2.1.139"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			rel := cloneRelease(t)
			claude := installT(t, v)
			home := installFromMarketplace(t, claude, rel)
			_, res := session(t, claude, forcePush, sessionOpts{home: home})
			if readHooksRE.FindStringSubmatch(res.DebugLog) == nil {
				t.Fatalf("%s's debug log names no hooks.json for the plugin", v)
			}
			installedRoot(t, home, v, res.DebugLog)
		})
	}
}
