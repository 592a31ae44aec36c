package catalog_test

import (
	"fmt"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
)

// Same-origin redirects are followed up to five times (docs/protocol.md
// §10.8.4); a sixth is not followed and the refresh is remote_unavailable.
func TestBlackBoxRedirectBound(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	fake.Add("hop0", fakeprovider.Success("m"))
	for i := 1; i <= 6; i++ {
		fake.Add(fmt.Sprintf("hop%d", i), fakeprovider.Scenario{RedirectSameOrigin: fmt.Sprintf("hop%d", i-1)})
	}
	five := prov{id: "five", typ: "openai", base: fake.URL("hop5"), keyEnv: testKeyEnv, enabled: []string{"m"}}
	six := prov{id: "six", typ: "openai", base: fake.URL("hop6"), keyEnv: testKeyEnv, enabled: []string{"m"}}
	p := startBackend(t, newHome(t, "", five, six))
	m, before := refresh(t, p, "five")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	m, before = refresh(t, p, "six")
	checkRefresh(t, m, before, wire.OutcomeFailed, wire.ReasonRemoteUnavailable)
	if n := len(fake.Requests("hop0")); n != 1 {
		t.Errorf("the end of the chains was asked %d times, want once (five redirects only)", n)
	}
}
