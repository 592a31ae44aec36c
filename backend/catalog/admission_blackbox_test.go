package catalog_test

import (
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestAdmissionIsPerKind (docs/protocol.md §3 "Request accounting"): while a
// slow model.refresh holds the one selection-class slot, every other
// selection-class request answers busy at once, and the other kinds
// (catalog reads, discovery, auxiliary reads) are admitted as usual.
func TestAdmissionIsPerKind(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	slow := prov{id: "slow", typ: "openai", base: fake.Add("slow", fakeprovider.Slow(time.Minute, "m", "n")), keyEnv: testKeyEnv, enabled: []string{"m"}}
	home := newHome(t, "", slow)
	writeValidCache(t, home, slow, "m")
	p := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home, testKeyEnv + "=test-key"}})
	p.Initialize(wire.AllCapabilities...)
	cat := catalogPage(t, p, nil)

	p.Request("r1", wire.MethodModelRefresh, map[string]any{"provider": "slow"})
	if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
		t.Fatalf("first message %s", m.Raw)
	}
	selection := []struct {
		method string
		params any
	}{
		{wire.MethodModelRefresh, map[string]any{"provider": "slow"}},
		{wire.MethodModelSelect, map[string]any{"provider": "slow", "model": "m", "revision": cat.Revision}},
		{wire.MethodModelEnable, map[string]any{"provider": "slow", "model": "m", "enabled": false}},
		{wire.MethodSessionNew, nil},
		{wire.MethodSessionOpen, map[string]any{"id": "abc"}},
		{wire.MethodWorkspaceTrust, nil},
	}
	for _, c := range selection {
		id := p.NextID()
		p.Request(id, c.method, c.params)
		m, before := p.Await(id)
		if m.Code() != wire.CodeBusy {
			t.Errorf("%s while a refresh holds the selection slot: %s", c.method, m.Raw)
		}
		for _, b := range before {
			if b.Method == wire.NotifyCommandStarted {
				t.Errorf("%s was refused but wrote %s", c.method, b.Raw)
			}
		}
	}
	others := []struct {
		method string
		params any
	}{
		{wire.MethodModelCatalogStatus, nil},
		{wire.MethodModelCatalog, nil},
		{wire.MethodModelCatalogModels, nil},
		{wire.MethodSessionList, nil},
		{wire.MethodSessionDiscover, nil},
		{wire.MethodProjectFiles, nil},
		{wire.MethodProjectList, map[string]any{"ref": "root"}},
	}
	for _, c := range others {
		if m := p.Call(c.method, c.params); m.Error != nil {
			t.Errorf("%s while a refresh holds the selection slot: %s", c.method, m.Raw)
		}
	}
	p.MustCall(wire.MethodCancel, map[string]any{"request_id": "r1"}, nil)
	if m, _ := p.Await("r1"); m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("refresh after cancel: %s", m.Raw)
	}
}
