package deckhand

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The zip the module embeds is the build: the same files with the same bytes as
// .output/chrome-mv3 (npm run build:ext rewrites it; commit it with the extension's changes).
func TestEmbeddedExtensionIsTheBuild(t *testing.T) {
	build := filepath.Join(repoRoot(t), ".output", "chrome-mv3")
	if _, err := os.Stat(filepath.Join(build, "manifest.json")); err != nil {
		t.Skipf("no built extension in %s to compare with (npm run build:ext makes it)", build)
	}
	files, err := readExtensionZip(embeddedExtension)
	if err != nil {
		t.Fatal(err)
	}
	inZip := map[string][32]byte{}
	for _, f := range files {
		inZip[f.name] = f.sum
	}
	var stale []string
	seen := map[string]bool{}
	err = filepath.WalkDir(build, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(build, p)
		name := filepath.ToSlash(rel)
		seen[name] = true
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if sum, ok := inZip[name]; !ok {
			stale = append(stale, name+" is not in the zip")
		} else if sum != sha256.Sum256(data) {
			stale = append(stale, name+" differs")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range inZip {
		if !seen[name] {
			stale = append(stale, name+" is only in the zip")
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Fatalf("go/extension/chrome-mv3.zip is stale against .output/chrome-mv3: run npm run build:ext "+
			"(or node scripts/pack-go-extension.mjs after wxt build) and commit it:\n  %s", strings.Join(stale, "\n  "))
	}
}

// useCacheHome points os.UserCacheDir at a fresh folder and forgets the folder this process
// checked, so the next use unpacks again.
func useCacheHome(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" && runtime.GOOS != "openbsd" && runtime.GOOS != "netbsd" {
		t.Skip("os.UserCacheDir follows XDG_CACHE_HOME on this system only")
	}
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("DECKHAND_EXTENSION_DIR", "")
	os.Unsetenv("DECKHAND_EXTENSION_DIR")
	forget := func() {
		unpacked.mu.Lock()
		unpacked.dir = ""
		unpacked.mu.Unlock()
	}
	forget()
	t.Cleanup(forget)
	return home
}

func TestTheEmbeddedExtensionIsUnpackedIntoTheUsersCacheOnce(t *testing.T) {
	home := useCacheHome(t)
	files, err := readExtensionZip(embeddedExtension)
	if err != nil {
		t.Fatal(err)
	}
	dir := ExtensionDir()
	want := filepath.Join(home, "deckhand", "extension-"+embeddedExtensionHash()[:16])
	if dir != want {
		t.Fatalf("unpacked to %q, want %q", dir, want)
	}
	if err := verifyExtensionDir(dir, files); err != nil {
		t.Fatal(err)
	}
	// Nothing is left beside it, and its id is the embedded manifest's.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Fatalf("the cache holds %d entries", len(entries))
	}
	fromDir, err := extensionIDFromManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := defaultExtensionID(); err != nil || id != fromDir || len(id) != 32 {
		t.Fatalf("id %q (%v), the folder's %q", id, err, fromDir)
	}

	// A later process checks the folder and uses it as it is.
	stamp := filepath.Join(dir, "manifest.json")
	info, _ := os.Stat(stamp)
	unpacked.dir = ""
	if again := ExtensionDir(); again != dir {
		t.Fatalf("%q then %q", dir, again)
	}
	if info2, _ := os.Stat(stamp); !info2.ModTime().Equal(info.ModTime()) {
		t.Fatal("a good folder was unpacked again")
	}

	// A file changed (or lost) since is found by its hash, and the folder replaced.
	if err := os.WriteFile(stamp, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, filepath.FromSlash(files[len(files)-1].name)))
	unpacked.dir = ""
	if again := ExtensionDir(); again != dir {
		t.Fatalf("%q then %q", dir, again)
	}
	if err := verifyExtensionDir(dir, files); err != nil {
		t.Fatal(err)
	}
	entries, _ = os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Fatalf("the cache holds %d entries after a repair", len(entries))
	}

	// DECKHAND_EXTENSION_DIR overrides it.
	t.Setenv("DECKHAND_EXTENSION_DIR", "/some/build")
	if d := ExtensionDir(); d != "/some/build" {
		t.Fatalf("ExtensionDir() = %q", d)
	}
}

func TestAnArchiveNamingAFileOutsideItsFolderIsRefused(t *testing.T) {
	for _, name := range []string{"../escape.js", "/etc/x", "a/../../b", `a\..\b`} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create(name)
		w.Write([]byte("x"))
		zw.Close()
		if _, err := readExtensionZip(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "outside its folder") {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// The CRX3 package made for a Grid node: Cr24, version 3, a header whose SignedData names the
// key's id and whose signature verifies, then the embedded zip unchanged.
func TestTheEmbeddedExtensionPacksAsASignedCRX3(t *testing.T) {
	useCacheHome(t)
	crx, err := packedExtension()
	if err != nil {
		t.Fatal(err)
	}
	if string(crx[:4]) != "Cr24" || binary.LittleEndian.Uint32(crx[4:]) != 3 {
		t.Fatalf("starts %q", crx[:8])
	}
	n := binary.LittleEndian.Uint32(crx[8:])
	header, body := crx[12:12+n], crx[12+n:]
	if !bytes.Equal(body, embeddedExtension) {
		t.Fatal("the package's zip is not the embedded one")
	}
	fields := protoFields(t, header)
	proof, signed := fields[2], fields[10000]
	if proof == nil || signed == nil {
		t.Fatalf("header fields %v", fields)
	}
	p := protoFields(t, proof)
	pubDER, sig := p[1], p[2]
	pub, err := x509.ParsePKIXPublicKey(pubDER)
	if err != nil {
		t.Fatal(err)
	}
	id := sha256.Sum256(pubDER)
	if got := protoFields(t, signed)[1]; !bytes.Equal(got, id[:16]) {
		t.Fatalf("crx id %x, want %x", got, id[:16])
	}
	h := sha256.New()
	h.Write([]byte("CRX3 SignedData\x00"))
	h.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(signed))))
	h.Write(signed)
	h.Write(body)
	if err := rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), crypto.SHA256, h.Sum(nil), sig); err != nil {
		t.Fatal(err)
	}
}

// protoFields reads a protocol buffer of length-delimited fields (the last of each number wins).
func protoFields(t *testing.T, b []byte) map[uint64][]byte {
	t.Helper()
	out := map[uint64][]byte{}
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 || key&7 != 2 {
			t.Fatalf("bad field key at %x", b)
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			t.Fatal("bad field length")
		}
		out[key>>3] = b[n : n+int(l)]
		b = b[n+int(l):]
	}
	return out
}
