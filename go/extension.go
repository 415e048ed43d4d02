package deckhand

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// The built extension ships inside the module: extension/chrome-mv3.zip is .output/chrome-mv3
// zipped by scripts/pack-go-extension.mjs (npm run build:ext runs it; the file is committed,
// so `go get` brings it, and a test fails when it differs from the build). On first use it is
// unpacked to the user's cache folder, in a folder named by the archive's hash.
//
//go:embed extension/chrome-mv3.zip
var embeddedExtension []byte

// extensionFile is one file of the embedded extension, with the hash its unpacked copy must have.
type extensionFile struct {
	name string // slash-separated, relative to the extension's folder
	data []byte
	sum  [32]byte
}

// readExtensionZip lists a zipped extension's files, sorted by name. Names that would leave
// the folder (absolute, "..") are refused.
func readExtensionZip(raw []byte) ([]extensionFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // such names are refused below
		return nil, err
	}
	var files []extensionFile
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		name := path.Clean(f.Name)
		if name != f.Name || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || strings.Contains(name, "\\") {
			return nil, fmt.Errorf("the archive names a file outside its folder: %q", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
		files = append(files, extensionFile{name: name, data: data, sum: sha256.Sum256(data)})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files, nil
}

// embeddedExtensionHash is the hex SHA-256 of the embedded archive: it names the cache folder.
func embeddedExtensionHash() string {
	sum := sha256.Sum256(embeddedExtension)
	return hex.EncodeToString(sum[:])
}

var unpacked struct {
	mu  sync.Mutex
	dir string // set once a folder is checked in this process
}

// extensionCacheRoot is where unpacked extensions go: the user's cache folder
// (os.UserCacheDir, e.g. ~/.cache, ~/Library/Caches, %LocalAppData%), else the temporary folder.
func extensionCacheRoot() string {
	if d, err := os.UserCacheDir(); err == nil && d != "" {
		return filepath.Join(d, "deckhand")
	}
	return filepath.Join(os.TempDir(), "deckhand-cache")
}

// unpackEmbeddedExtension returns the folder holding the embedded extension:
// <cache>/deckhand/extension-<hash>. The first use unpacks it into a temporary folder beside
// it and renames that into place, so no process ever sees half a folder; a folder that is
// there already is used when every file has the archive's hash (once per process), and
// replaced when not.
func unpackEmbeddedExtension() (string, error) {
	unpacked.mu.Lock()
	defer unpacked.mu.Unlock()
	if unpacked.dir != "" {
		return unpacked.dir, nil
	}
	files, err := readExtensionZip(embeddedExtension)
	if err != nil {
		return "", newError(CodeExtensionMissing, "the extension embedded in the module is unreadable: %v", err)
	}
	root := extensionCacheRoot()
	final := filepath.Join(root, "extension-"+embeddedExtensionHash()[:16])
	if err = verifyExtensionDir(final, files); err != nil {
		err = unpackInto(root, final, files)
	}
	if err != nil {
		return "", newError(CodeExtensionMissing, "cannot unpack the embedded extension into %s: %v (set DECKHAND_EXTENSION_DIR to a built extension instead)",
			root, err)
	}
	unpacked.dir = final
	return final, nil
}

func unpackInto(root, final string, files []extensionFile) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(root, ".unpacking-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	for _, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return err
		}
	}
	// A bad copy is moved aside (an open file can keep it from being removed at once) and ours
	// goes in its place; should another process put a good one there first, that one serves.
	if os.Rename(final, tmp+".stale") == nil {
		defer os.RemoveAll(tmp + ".stale")
	}
	if err := os.Rename(tmp, final); err != nil && verifyExtensionDir(final, files) != nil {
		return err
	}
	return verifyExtensionDir(final, files)
}

// verifyExtensionDir checks that dir holds every file with the archive's content (by SHA-256).
// Files Chromium adds beside them do not matter.
func verifyExtensionDir(dir string, files []extensionFile) error {
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.name)))
		if err != nil {
			return err
		}
		if sha256.Sum256(data) != f.sum {
			return fmt.Errorf("%s differs from the embedded extension", f.name)
		}
	}
	return nil
}

// extensionDir is the extension a launcher loads: DECKHAND_EXTENSION_DIR, else the embedded
// one, unpacked.
func extensionDir() (string, error) {
	if v := os.Getenv("DECKHAND_EXTENSION_DIR"); v != "" {
		return v, nil
	}
	return unpackEmbeddedExtension()
}

// ExtensionDir is the folder of the extension LaunchLocalBrowser loads by default:
// DECKHAND_EXTENSION_DIR when it is set, else the extension embedded in this module, unpacked
// on first use into the user's cache folder (deckhand/extension-<hash>). It is "" when that
// cannot be done; LaunchLocalBrowser then says why.
func ExtensionDir() string {
	dir, _ := extensionDir()
	return dir
}

// defaultExtensionID is the id of the extension the default folder holds, read from the
// manifest's key: DECKHAND_EXTENSION_DIR's, else the embedded one's (nothing is unpacked).
func defaultExtensionID() (string, error) {
	if v := os.Getenv("DECKHAND_EXTENSION_DIR"); v != "" {
		return extensionIDFromManifest(v)
	}
	files, err := readExtensionZip(embeddedExtension)
	for _, f := range files {
		if f.name == "manifest.json" {
			return extensionIDFromManifestJSON(f.data, "the embedded extension's manifest.json")
		}
	}
	return "", newError(CodeExtensionMissing, "the extension embedded in the module has no manifest (%v)", err)
}
