//go:build !noasm && !gccgo && !safe && (amd64 || arm64)

package pdn

import "runtime"

// gonumAsm reports that gonum runs its assembly kernels in this build.
const gonumAsm = true

// asmPins are the golden and zoo digests of a plain go test on amd64,
// where gonum's BLAS kernels (in the generator's draws) are assembly:
// other bits than the browser's, pinned so that a plain go test runs the
// determinism tests too. On arm64 none is pinned, and they skip.
var asmPins = map[string]string{
	"golden":         "9f97c832a63f976cabb0f039b86d1e184432465fd35a369e9b28e935b63ea263",
	"official":       "d19b5d4e7f916e7af1d9f1c297795c5745ddfc211e6d21729cf91c3a97e5ac5e",
	"sparse":         "6206d246f36707461ea7a808a9b964deba80874a1faa863e13e180d131b273b4",
	"pdn-linear":     "d85c6fa744dfdc0d4fbd5fe0e7cfdb2bb5a705718d4cf4a85565de00edc49207",
	"pdn-edgeconv":   "5d90d2e7c7589e2f9dbc8030fd15f5b1435267c1495e0ce1c47fad098bbdbf56",
	"pdn-multiscale": "9307e8ac198e707fc19c6b13d1f85bc495a56dd9804e53f0864d1be4c8c38a5c",
	"gcn":            "95b590080b1e5c75415bc4fec4f745860f7cf3e56761ac888a84ad63e9e4c0d3",
	"gat":            "b66cdce6a0a2765ca9dab391c655caa53d6486486ee921dda04fb2fba3ac429c",
	"sage":           "80c184fc9556ed0d7fbefb35f9fa38d263f19ab6ef350efd43b5307a5165c2e6",
	"cheb":           "daf10806bd4dc23b4e20ea7578360ca01621542126282783135be00752db1685",
	"appnp":          "74ee33ba9103fd8f078006269ae079b5bb8d7aaa219726dab721ce87453bc37b",
	"sgc":            "0a0e9aaf0d6fd64d1bb9fb256135d799c92379ee2224e23a95f2dcfa24079af4",
	"clustergcn":     "43ce5eef0f0e30cdfc42b751f0dba851e57c467e58be2f4f95bff03d9512cac6",
	"deepwalk":       "c446118282977769f1fc7557212f0e1bc0c58e09988e2c6ea825920f693dd8ec",
	"mlp":            "ce05cc7f98633fa6decc5f821cd4178a73a6374f2674c922159ab167ce7edf1f",
}

func init() {
	if runtime.GOARCH != "amd64" {
		asmPins = nil
	}
}
