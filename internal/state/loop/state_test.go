package loop

import (
	"testing"

	"github.com/hookwright/hookwright/internal/runtime/config"
)

func TestStartStopEffective(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default().Loop
	if st, err := Load(dir); err != nil || st.Effective(cfg).Enabled {
		t.Fatalf("a missing state file: %+v, %v", st, err)
	}
	if err := Start(dir, Settings{Check: "make test", MaxRounds: 2}); err != nil {
		t.Fatal(err)
	}
	st, err := Load(dir)
	eff := st.Effective(cfg)
	if err != nil || !eff.Enabled || eff.Check != "make test" || eff.MaxRounds != 2 || eff.StallRounds != cfg.StallRounds {
		t.Fatalf("armed: %+v, %v", eff, err)
	}
	if err := Stop(dir); err != nil {
		t.Fatal(err)
	}
	on := cfg
	on.Enabled = true
	if st, _ := Load(dir); st.Effective(on).Enabled {
		t.Error("a cancelled loop is still on")
	}
}
