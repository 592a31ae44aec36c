package catalog_test

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// modelsDevProxy stands in for https://models.dev/api.json without leaving
// 127.0.0.1: an HTTPS proxy on loopback that answers CONNECT models.dev:443
// itself, with a certificate for models.dev signed by a test authority,
// and serves doc at /api.json. The returned environment points a child at
// it (HTTPS_PROXY) and makes it trust the authority (SSL_CERT_FILE), so a
// backend without any configuration enriches from doc exactly as it would
// from the real document. asked counts the documents served.
func modelsDevProxy(t *testing.T, doc string) (env []string, asked func() int) {
	t.Helper()
	caPEM, leaf := testAuthority(t, "models.dev")
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	served := make(chan struct{}, 64)
	cfg := &tls.Config{Certificates: []tls.Certificate{leaf}, NextProtos: []string{"http/1.1"}}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go serveTunnel(conn, cfg, doc, served)
		}
	}()
	url := "http://" + l.Addr().String()
	env = []string{"HTTPS_PROXY=" + url, "https_proxy=" + url, "NO_PROXY=", "no_proxy=", "SSL_CERT_FILE=" + caFile, "SSL_CERT_DIR=" + t.TempDir()}
	return env, func() int { return len(served) }
}

// serveTunnel answers one CONNECT to models.dev:443 and then one GET
// /api.json over TLS inside it.
func serveTunnel(conn net.Conn, cfg *tls.Config, doc string, served chan<- struct{}) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	req, err := http.ReadRequest(bufio.NewReader(conn))
	if err != nil || req.Method != http.MethodConnect || req.Host != "models.dev:443" {
		fmt.Fprint(conn, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
		return
	}
	fmt.Fprint(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	tc := tls.Server(conn, cfg)
	inner, err := http.ReadRequest(bufio.NewReader(tc))
	if err != nil {
		return
	}
	if inner.URL.Path != "/api.json" {
		fmt.Fprint(tc, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	served <- struct{}{}
	fmt.Fprintf(tc, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(doc), doc)
}

// testAuthority makes a certificate authority and a certificate for host
// signed by it.
func testAuthority(t *testing.T, host string) (caPEM []byte, leaf tls.Certificate) {
	t.Helper()
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey, leafKey := key(), key()
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "scout test authority"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: host}, DNSNames: []string{host},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf = tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), leaf
}

// modelsDev is a models.dev-shaped document for provider key with
// reasoning models (efforts low, medium, high) and plain ones.
func modelsDev(key string, reasoning, plain []string) string {
	var models []string
	for _, id := range reasoning {
		models = append(models, fmt.Sprintf(`%q:{"name":"Reasoning %s","reasoning":true,"limit":{"context":200000}}`, id, id))
	}
	for _, id := range plain {
		models = append(models, fmt.Sprintf(`%q:{"name":"Plain %s","reasoning":false}`, id, id))
	}
	return fmt.Sprintf(`{%q:{"models":{%s}}}`, key, strings.Join(models, ","))
}
