package deckhand

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"os"
	"path/filepath"
)

// packedExtension is the CRX package LaunchGridBrowser sends with PackedExtension: with
// DECKHAND_EXTENSION_DIR set, the <dir>.crx that `npm run build` writes beside it; else the
// embedded extension, packed here.
func packedExtension() ([]byte, error) {
	if v := os.Getenv("DECKHAND_EXTENSION_DIR"); v != "" {
		crx := v
		if abs, err := filepath.Abs(crx); err == nil {
			crx = abs
		}
		crx += ".crx"
		raw, err := os.ReadFile(crx)
		if err != nil {
			return nil, newError(CodeExtensionMissing, "no packed extension at %s: npm run build writes it where Chromium is installed", crx)
		}
		return raw, nil
	}
	raw, err := packCRX3(embeddedExtension)
	if err != nil {
		return nil, newError(CodeInternal, "cannot pack the embedded extension: %v", err)
	}
	return raw, nil
}

// packCRX3 wraps a zipped extension in a CRX3 package signed with a key made for the
// occasion and thrown away, as scripts/pack-extension.mjs does: the extension's id comes from
// the `key` in its manifest, not from the package's signature.
//
// The format: "Cr24", version 3, the header's length (little-endian uint32s), the header (a
// CrxFileHeader protocol buffer: field 2 an AsymmetricKeyProof {1: public key, 2: signature},
// field 10000 the SignedData {1: crx id}), then the zip. The signature is RSA PKCS #1 v1.5
// with SHA-256 over "CRX3 SignedData\x00", the SignedData's length, the SignedData and the zip.
func packCRX3(zipped []byte) ([]byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	id := sha256.Sum256(pub)
	signedData := protoBytes(nil, 1, id[:16])
	h := sha256.New()
	h.Write([]byte("CRX3 SignedData\x00"))
	h.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(signedData))))
	h.Write(signedData)
	h.Write(zipped)
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, h.Sum(nil))
	if err != nil {
		return nil, err
	}
	proof := protoBytes(protoBytes(nil, 1, pub), 2, sig)
	header := protoBytes(protoBytes(nil, 2, proof), 10000, signedData)
	out := []byte("Cr24")
	out = binary.LittleEndian.AppendUint32(out, 3)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(header)))
	out = append(out, header...)
	return append(out, zipped...), nil
}

// protoBytes appends a length-delimited protocol buffer field.
func protoBytes(b []byte, field uint64, v []byte) []byte {
	b = binary.AppendUvarint(b, field<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}
