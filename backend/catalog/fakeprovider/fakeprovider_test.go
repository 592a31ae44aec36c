package fakeprovider_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
)

func get(t *testing.T, url string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var doc map[string]any
	json.Unmarshal(body, &doc)
	return resp.StatusCode, doc
}

func TestShapes(t *testing.T) {
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := srv.Add("ok", fakeprovider.Paged(2, fakeprovider.Models("a", "b", "c")))
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("base URL %s", base)
	}
	if code, doc := get(t, base+"/models", nil); code != 200 || len(doc["data"].([]any)) != 3 {
		t.Fatalf("openai shape: %d %v", code, doc)
	}
	code, doc := get(t, base+"/models?limit=10", map[string]string{"anthropic-version": "2023-06-01"})
	if code != 200 || len(doc["data"].([]any)) != 2 || doc["has_more"] != true || doc["last_id"] != "b" {
		t.Fatalf("anthropic first page: %d %v", code, doc)
	}
	code, doc = get(t, base+"/models?after_id=b", map[string]string{"anthropic-version": "2023-06-01"})
	if code != 200 || len(doc["data"].([]any)) != 1 || doc["has_more"] != false {
		t.Fatalf("anthropic last page: %d %v", code, doc)
	}
	if code, doc := get(t, base+"/api/tags", nil); code != 200 || len(doc["models"].([]any)) != 3 {
		t.Fatalf("ollama shape: %d %v", code, doc)
	}
	if reqs := srv.Requests("ok"); len(reqs) != 4 || reqs[1].APIVersion != "2023-06-01" {
		t.Fatalf("requests %+v", reqs)
	}
	keyed := srv.Add("keyed", fakeprovider.Scenario{Key: "k", Models: fakeprovider.Models("a")})
	if code, _ := get(t, keyed+"/models", nil); code != 401 {
		t.Fatalf("without key: %d", code)
	}
	if code, _ := get(t, keyed+"/models", map[string]string{"Authorization": "Bearer k"}); code != 200 {
		t.Fatalf("with key: %d", code)
	}
	for name, want := range map[string]int{"429": 429, "cross": 302} {
		sc := fakeprovider.RateLimited
		if name == "cross" {
			sc = fakeprovider.CrossOrigin
		}
		if code, _ := get(t, srv.Add(name, sc)+"/models", nil); code != want {
			t.Errorf("%s: %d", name, code)
		}
	}
	if _, err := fakeprovider.UnreachableURL(); err != nil {
		t.Fatal(err)
	}
}
