package deckhand

// The options a caller fills in for pages and screenshots, the provider-specific model
// configurations, and their wire forms: idiomatic Go over the schema's shapes
// (schema/deckhand.schema.json), so written by hand. The results are generated (types_gen.go).

// ScreenshotOptions configure Page.Screenshot (nil for a PNG of the viewport).
type ScreenshotOptions struct {
	// Type is "png" (default) or "jpeg".
	Type string `json:"type,omitempty"`
	// Quality is a JPEG's quality, 0 to 100.
	Quality *int `json:"quality,omitempty"`
	// FullPage captures the whole page instead of the viewport.
	FullPage bool `json:"fullPage,omitempty"`
	// Path, when set, also writes the image to this file.
	Path string `json:"-"`
}

// PageExtraction is what Page.Extract returns without Into: the page's text (no instruction:
// no model is asked) or the model's extraction (an instruction).
type PageExtraction struct {
	PageText   string `json:"pageText,omitempty"`
	Extraction string `json:"extraction,omitempty"`
}
