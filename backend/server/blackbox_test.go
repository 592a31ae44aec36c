package server_test

import (
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

func TestStatusBeforeInitialize(t *testing.T) {
	t.Parallel()
	p := scouttest.Start(t, scouttest.Options{})
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	if st.State != wire.StateReady || st.Generation != 1 || st.Attachment != nil || st.RequestsAdmitted != 0 {
		t.Fatalf("status = %+v", st)
	}
	if st.TS == "" {
		t.Fatal("status has no ts")
	}
}
