module pdnexplorer

go 1.26

require (
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b
	github.com/andybalholm/brotli v1.3.0
	github.com/boombuler/barcode v1.0.2
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/maxence-charriere/go-app/v9 v9.8.0
	golang.org/x/text v0.23.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/uuid v1.3.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
