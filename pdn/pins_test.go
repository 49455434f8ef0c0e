package pdn

import (
	"regexp"
	"runtime"
	"slices"
	"sort"
	"testing"

	"pdnexplorer/experiment"
)

// thisBuild names the build whose pins this test binary must give. Two
// things change the bits of the same seeds: which of gonum's kernels run
// (its pure Go under -tags noasm, as the Makefile and the browser build;
// its assembly in a plain go test on amd64 and arm64, which the
// generator's draws go through), and whether the compiler fuses x*y + z
// (fused_on_test.go). Every build of gonum's pure Go without fusing gives
// the browser's bits: amd64 up to GOAMD64=v2 with or without
// GOEXPERIMENT=simd (whose vector paths keep the scalar loops' bits),
// GOOS=js under Node, and the worker's SIMD kernels (simd128).
func thisBuild() string {
	gonum := "pure"
	if gonumAsm {
		gonum = "asm"
	}
	if gonum == "pure" && !fusedArch {
		return "browser"
	}
	arch := runtime.GOARCH
	if fusedArch && arch == "amd64" {
		arch += ".v3"
	}
	return gonum + "/" + arch
}

// pinNames are the runs every build pins: the golden run and its two
// variants, the default scenario's seed 1 (TestDefaultScenarioSeed1) and
// the zoo, one run of every other kind of the model table.
func pinNames() []string {
	names := []string{"golden", "official", "sparse", "mean-loop", "seed1"}
	for _, kind := range experiment.Kinds {
		if kind != experiment.PDN { // the golden run
			names = append(names, kind)
		}
	}
	return names
}

// checkPin fails t unless got is this build's pin of name. A build or a
// name without a pin fails too, never skips: a new kind or a new build
// must bring its pins, which the message gives.
func checkPin(t *testing.T, name, got string) {
	t.Helper()
	build := thisBuild()
	table, ok := pins[build]
	if !ok {
		t.Errorf("%s: no pins for this build (%s): it gives %s; add the build's table to pins (pdn/pins_test.go)", name, build, got)
		return
	}
	want, ok := table[name]
	switch {
	case !ok:
		t.Errorf("%s: no pin in pins[%q] (pdn/pins_test.go): this build gives %s", name, build, got)
	case got != want:
		t.Errorf("%s (%s build): digest %s, want %s", name, build, got, want)
	}
}

// Every build's table pins every run of pinNames, and nothing else: a kind
// added to the model table without its pins in every build fails every
// build, not only the one its author ran.
func TestEveryBuildPinsEveryRun(t *testing.T) {
	want := pinNames()
	sort.Strings(want)
	hex := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for build, table := range pins {
		var have []string
		for name, d := range table {
			have = append(have, name)
			if !hex.MatchString(d) {
				t.Errorf("pins[%q][%q] = %q is not a SHA-256", build, name, d)
			}
		}
		sort.Strings(have)
		for _, name := range want {
			if !slices.Contains(have, name) {
				t.Errorf("pins[%q] has no pin of %s: run go test ./pdn -run 'Golden|Zoo|Seed1' on that build, which gives it", build, name)
			}
		}
		for _, name := range have {
			if !slices.Contains(want, name) {
				t.Errorf("pins[%q] pins %s, which is not a run the tests make (a kind gone from the model table?)", build, name)
			}
		}
	}
	if _, ok := pins[thisBuild()]; !ok {
		t.Errorf("no pins for this build (%s): the golden and zoo tests say what it gives", thisBuild())
	}
}

// The build's name follows its tags: the Makefile's (noasm, no fusing on
// amd64) is the browser's.
func TestThisBuild(t *testing.T) {
	if !gonumAsm && !fusedArch && thisBuild() != "browser" {
		t.Errorf("gonum's pure Go without fusing is %q, not the browser's build", thisBuild())
	}
	if gonumAsm && thisBuild() == "browser" {
		t.Error("gonum's assembly build is named the browser's")
	}
}

// pins are the digests each build gives, by build (thisBuild) and run
// (pinNames).
var pins = map[string]map[string]string{
	"browser": {
		"mean-loop":      "1fd237d81345a802de03591dd5481faa23ebcd43f02e3ec5f9144fb5f048a4cd",
		"golden":         "300bac282c4b21e5167f481d523e9cc2da324876088184f63f417848ce96c35b",
		"official":       "99a4f8c1263babaa8ee36322a0a114e402230981fc108be849543f0562336117",
		"sparse":         "2e7c22a073031b177e331cb8da40020d27105e43083d7911a935a435600ab12a",
		"seed1":          "25bf47fd966eb236dd9607725773b319902b0918ef9b859b98094d603afa6392",
		"pdn-linear":     "ff17d5a074d890016d2b0c6da436eedc15c170cc22082c496b74cd7ab445c1a5",
		"pdn-edgeconv":   "19f25bb1558e7c73f981c67a4259b1aa613f093b75b4e064fc61d8d43b591294",
		"pdn-multiscale": "7d0d17c710539024a60079d7d9355a4b3f1248d734023f1c049ef11c3ecce17a",
		"gcn":            "89210dbfbbf1ebda7a9b8b7acf5e44662769aec4ee1ce10e3845ca66f69f6fec",
		"gat":            "3910d4403266a156f3c27f6640ce29efe210a634bb68005351037055122731a2",
		"appnp":          "efb068f2af9cbb50354f9623df4ec0144306e15368f63ca26d0e9a7b36c36f0f",
		"sgc":            "ba24fa293430cc95f6a0deefd47ae111b88eb8e73e3d5a8da18ce72f42450a9b",
		"clustergcn":     "7277796980987ff84674d25608649c6d0868975472a613bf174211db07c146df",
		"deepwalk":       "d3df02c030891ade82582b8f20f7b5b9250b2b389b02086410ea1c3bd6952a8a",
		"feather":        "f969e1a61eb3e4b640de2d4c71f1b4d0c660c3e82dd479d2caa5a6f03e19b710",
		"tadw":           "de5bb8e04ad60e5983e9645eea2e223ad3ad0d98e79c409911b1b9075a054f6a",
		"bane":           "889c711b4d4a32f698bfa4c278245ba3861189b3bd4925c138e0a8cd5e044103",
		"mlp":            "5266f615e8a1fe6439e031a214067335a430817778681e384a8f1f4cb6588bf5",
		"sage":           "7c5b988784b087641998c32f6a6bad80b6f7ec14871e34c4d68f1a7cba2b8e43",
		"cheb":           "343fe0989715165528ac64b77fc28ccb2a4e146431814d532a64166bc1797f9e",
		"netmf":          "fbb882581172ff5266c8d6fcda8680a44a69e9f669a0f7bdebd6a6fecd3e184c",
		"hope":           "2bc83671edf6dea93730875903857a0d5765a63adb92dc2928f722d262d36727",
		"grarep":         "2f25790f61bd7fce2797b62a1ea93defe0b41b958d28ebacb964ba7e4ec95a1f",
		"walklets":       "ecaa3b02d96d4cb5c71a76e3573434b1273ed25ebdbe8d0b5a06be82714c00cb",
		"line":           "0211026bcd0cdcf02307058f0ba0ca55e2c856061ac480c3ffde717a91beab07",
	},
	"asm/amd64": {
		"mean-loop":      "57c0afde0722e0695e3d303970f5866c5561824b91859c22ae563c4f6d258f2b",
		"golden":         "9f97c832a63f976cabb0f039b86d1e184432465fd35a369e9b28e935b63ea263",
		"official":       "d19b5d4e7f916e7af1d9f1c297795c5745ddfc211e6d21729cf91c3a97e5ac5e",
		"sparse":         "6206d246f36707461ea7a808a9b964deba80874a1faa863e13e180d131b273b4",
		"seed1":          "491c76ab86d8c003adc629e4b8044b6da389dd01116594ae1b94e3a32f49ca83",
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
		"deepwalk":       "d3df02c030891ade82582b8f20f7b5b9250b2b389b02086410ea1c3bd6952a8a",
		"feather":        "0171a2d567fb0b59d7d0cd52a4f809e5275f96164b901ec66e8fdd84f9c544fb",
		"tadw":           "8e97943c6c61ece871f62a93ff206e1a5801d354ff9835ef7044cc501361651f",
		"bane":           "889c711b4d4a32f698bfa4c278245ba3861189b3bd4925c138e0a8cd5e044103",
		"mlp":            "ce05cc7f98633fa6decc5f821cd4178a73a6374f2674c922159ab167ce7edf1f",
		"netmf":          "19ed7b3a61925f6472f345977889d2b71aee65f7b883983b9eb9e77cb4404e36",
		"hope":           "e2f7c7701e66aaeffd3f837e539e02f56221d085eba396ac5c60a66e20710732",
		"grarep":         "9b8b9705d2259f2b8ed2c834236c50a8f20808799c0821980db30b15d142db17",
		"walklets":       "ecaa3b02d96d4cb5c71a76e3573434b1273ed25ebdbe8d0b5a06be82714c00cb",
		"line":           "0211026bcd0cdcf02307058f0ba0ca55e2c856061ac480c3ffde717a91beab07",
	},
	// GOAMD64=v3 fuses products outside the engine's kernels (the
	// generator's draws, DeepWalk's float32 updates): other bits.
	"pure/amd64.v3": {
		"mean-loop":      "bfe71d32d24be023ad397a7f88852aec2e0c7ea0b0e1e663c28f129f77aa7e8d",
		"appnp":          "532e743747fab84597e68c1518106f83eeb52ccd3157d2b1981547f866695b00",
		"cheb":           "14abcb709f7d31a731ccb5c82f32b0c25aa34468ce7631aa95872f07c39de625",
		"clustergcn":     "a4dc22db36be6d3c205faa95a4db4214462bcd8a6fa0fbec7aff5e91ea9ac80a",
		"deepwalk":       "3285965931d15c3949284dc9dcf4d2d7862f0e695395a48f98e3d6905b8c9622",
		"feather":        "71a4ac60a72ae248e2b0a49b17f0fbfd5b905aefd9076cbfed734bfa7efb200d",
		"tadw":           "7c2c347512c53fdf409e6a29cb12626823e91e88f59055aa438f59c8cd1586af",
		"bane":           "889c711b4d4a32f698bfa4c278245ba3861189b3bd4925c138e0a8cd5e044103",
		"gat":            "a01c72820876c3818c54a8a5857b3b5401efb316b30e2ef5518584f9ae36d4ac",
		"gcn":            "fc3baf4ac57ae29f369c4684fc6870e9bf14d6d5ccd54e4b5ee6a901356224df",
		"golden":         "cd77b6df71eb20c5c22a7b27613eaa36bc58cb982895c24e9c7c78dd8ec58d0a",
		"mlp":            "d6e6a9aae3b351603e97467fe3501fe4d71fc2c21db03ed5dbedd40facfa886d",
		"official":       "3afc621b26f7a864248d7996bc8833f03b13e654d9c49928235673f26b4677d9",
		"pdn-edgeconv":   "b9049ba3132ddead12edcf4060f74813308a7d0055556f1ebcf764a077acec60",
		"pdn-linear":     "4ef8a015a7e7d22ea0b7f62c230596d54b9ec14923d381a55877cd75c957305e",
		"pdn-multiscale": "d92d05cc68066c6ca5971bd43c1fb9f536671c7f007fac4d31e6dddb744c0490",
		"sage":           "daf2b403fead09f11985422b54423ed687f85142bd202623f64c2fbfb978148f",
		"seed1":          "a6f944a385414d81f0bcaf5598b412d8c289872a00957500bccfd1716cdbca15",
		"sgc":            "a7d696c06b188cd592e48b8a7fb42632e19af2b354922823d2ef6b938d157b0d",
		"sparse":         "0bbb2f8b5b341424c7c3557df4320bdcf491236934e44d8d544febc06fd500c8",
		"netmf":          "abf1030f7aba422a4f30e82cff32f79f4b503898e0a997250cd2bef4bcc78072",
		"hope":           "f8943a19b525abf0f1ad0b06a440f5de64ea77524e6923eef5c197acc88294a6",
		"grarep":         "3f4a12249ac8c8b32603bfd6bf490efd35a05eb2af4a65669292c662a335316a",
		"walklets":       "1b7a1c4cdd0b5f19a414a841c088216186dbbfddeb8d0ad6d0e311d01fc4f2f5",
		"line":           "e26f6be7689ef4b8654732a369c2c7e21107519c9be177042d457d06e4d567b4",
	},
	"asm/amd64.v3": {
		"mean-loop":      "885b3b5428d8506bee56f1707030e9dd34408906743aeffd134695f5fd0a6c29",
		"appnp":          "459153de96109bd7db6f112dfc8667febdd2b6126bda4d9168a8244179e48ef6",
		"cheb":           "1ac01cf04fcca4ef91fca0b52a7c2a6290b6dcffd10f0e48e9410674b6ce3304",
		"clustergcn":     "dad554e309e77b8e7eeeaa4ac501050d679bae2e9d091cb843960a55499c3b4d",
		"deepwalk":       "3285965931d15c3949284dc9dcf4d2d7862f0e695395a48f98e3d6905b8c9622",
		"feather":        "16018ae5b14e696cc32f6f3c586995da0592b3a81c4987af62deeb12cd56b0a1",
		"tadw":           "cd1885cb8efcd621c7415a9ea875dc5b8600b8ed44201e777c11a3d6f6dfd6fb",
		"bane":           "889c711b4d4a32f698bfa4c278245ba3861189b3bd4925c138e0a8cd5e044103",
		"gat":            "1c2cce00d4726392fd63872666ede972b1bd75f1b42c4039609737d3b834c5e2",
		"gcn":            "299c54beffb814dd5a94e201f559b03a4449cdad0a1a768edf10dd6af1b41058",
		"golden":         "60603cc9ddf8cbc3c67a1b487f3a6d5ba8417e5b5b910939952a47244eb896f2",
		"mlp":            "9f761f825549809ad20a6382d0b23a1fdc66498b82bf1cc9991c48a0bfbbc036",
		"official":       "6a6bc5f52f7bb171c07db0607af26e776ac5a7ec6984b2ce9325173ec2e72864",
		"pdn-edgeconv":   "c533b159f153bb3e60d18413fa66dfb1802c3846d163bfc3efe09e6c8cf426ea",
		"pdn-linear":     "e9bd96b6d98cd6191c9da6be6109afa4a3072c548d43328d875f0fd6cc7ce39b",
		"pdn-multiscale": "ac87f4500d3d8bec2c4a61cfcbca5f8c45a994e4b89eb525b6f36b724840fe60",
		"sage":           "336ef1e639a1bc24c679e41cd58de0d4ce44fc38d53299e3d5ec1751349bcfbc",
		"seed1":          "1e409c133b645d805063aee9d8e7fd1d2901b88aab70987c58960b7c3c5f43de",
		"sgc":            "80ea9ac3e2330d8d00f82c0d3b962163c3a9f333afadd8b9c3ebf10bd2b3e030",
		"sparse":         "f09db75afe3ad66dad6026d453b1cbc7654d1b79d79eda72961717ed12ac6958",
		"netmf":          "40bfed981a7019aa1dd19aa667b4bb5cf1c08e77ace2c076f3f4a686342d299e",
		"hope":           "74138a6b0220e03c4a6864cebcd11f51e9767bab9670110952287187ae537e58",
		"grarep":         "91f5df31c77b7bd0b5fc2c280050e89a92e29571d44941433d16b1c04d013d79",
		"walklets":       "1b7a1c4cdd0b5f19a414a841c088216186dbbfddeb8d0ad6d0e311d01fc4f2f5",
		"line":           "e26f6be7689ef4b8654732a369c2c7e21107519c9be177042d457d06e4d567b4",
	},
	// arm64 fuses too; gonum's assembly there gives its pure Go's bits.
	"pure/arm64": arm64Pins,
	"asm/arm64":  arm64Pins,
}

// arm64Pins were taken from the tests' arm64 builds run in QEMU's user
// mode (qemu-aarch64-static), with -tags noasm and without.
var arm64Pins = map[string]string{
	"mean-loop":      "5e2901074a6c3aaf3d71bb7b855805ac67a49027c72ab1a4468719aad34df6ec",
	"appnp":          "8415122b1dbcdb95512a0c427b38722f2e3378df2bb5ef0aa9191b7de4923631",
	"cheb":           "991787a98c21be78627e164489c0ce6d6d96ed17063137aebbe1c39d470fa437",
	"clustergcn":     "0b137ed0f9d82e43956184fba0cd75fd748f3d7ce84e6a8f55d24043ff54fdbc",
	"deepwalk":       "a036337df4ff682ab3a69626be007a042ed6fcc5b2c41e2b391d70731140f9b6",
	"feather":        "f465634174300a41b5ad4127881a6d6301642f52940b093ff74dbd69fdc0369f",
	"tadw":           "1b537dabc50810ccb83d6822518360f89d89e101a69f3d5e3a9cb2e6d5e63cf9",
	"bane":           "130a639c89c8cf28731ad13792d94058cb6b7d1934d781c22d2d75b3f50b606c",
	"gat":            "2912309855a2497096d49517df2eac51ba3e5c5cdb824e81cc7a357101c71dd4",
	"gcn":            "3bba0e4c95389de2985305ae398349c0fd441db9cada14b7d2a8736596880b16",
	"golden":         "f4d9ae7b029d0f081caf4cad8adcc454dbb14013c23cfd09f0d190a0118cd5b3",
	"mlp":            "4727691e41085deea6e21d8acc7f880024cfbf5adf7b53cdff70837a716942d1",
	"official":       "ea0eeaab2eb9ac842249d3843e55a40a622553bf14e3e37d74698053ed057484",
	"pdn-edgeconv":   "98813da59e79cc8861c40a03e950a89aa58150fd9257cca8e6e414e5cd9944de",
	"pdn-linear":     "10e6d790266b364eecc4a0b631fedf583f5dee23896b2a70488f1bd5a3ac4b40",
	"pdn-multiscale": "9653fffb1888224b76a68d68b8f8eda547f20e5c8614e04bb74c9c0a5ac8abf2",
	"sage":           "bfa2a57fc7c13000554f29db0f11e99a7d03dc91cdfcdcbbd2e229a5a1d45c4a",
	"seed1":          "37aa89e9a58a6e54c230d71b667955100c7fc9e82ffe6c9f3d3fd44dcd65fbbd",
	"sgc":            "34c10a5d18c6f283c3e827880f11c70f2e71d125f5af273514cb3804df424a80",
	"sparse":         "2a6c76f8852fa7dfa8b84c1f168c22ce0e0da1bd35f1e1b0e589feab889cd26d",
	"netmf":          "626d7f02b8d74bc7b1eb862c5037420366b879edae4222a5c80b6eadf3b9be63",
	"hope":           "858b86effe8f36164aa6f65ffcb6058f6a5d73c3c6411ca8eaf6d5aa5dfe5555",
	"grarep":         "bed045c4a4ef5841b74d59e2a524d60787d29d1d5a1dda186db64638ce7287c2",
	"walklets":       "b00ce7ec868e3d8f4a5ffa01f4c109a3277e8a1da71dc1e1287f90a1517a8686",
	"line":           "7a0f4438afa818c23b86c1e700198997287f1b8a38d8dadb097d1a3789b3d815",
}
