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
		"asne":           "3a0cc7941f3e25e65376805e2713f93c279be8ba296eff357611acf31354e45a",
		"musae":          "a47824c6c4a740d80ca03eb96f6e4ead724f4be32c690d31a0a816180b4141dc",
		"aane":           "96d9700e9b912012f6df0f6adabf33d9e86956a3fbeafdd28e2dc04b0382631d",
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
		"deepwalk":       "818a6b81804d608a5f3d75d26e7f0caeb8a4dbe33a50c9fe081782eeceba2100",
		"feather":        "241927f32b288a1aad9b572d1a47c1f60ad3c220ecaaef91162603b7367f4895",
		"mgcn":           "7adeaf6cb1010c3f90901552d00420d1b7ac0a615f205e9596456c360ca1f37d",
		"dmgi":           "73a29eb11f64ec0be7df80873302461dc0b8dcde5f8abf3b7a8278e94b8f2477",
		"tadw":           "a5c4ce2179c03acc022ecf8ef42f28c43980773df1d0b591cfbbbd3efd82ce00",
		"bane":           "4b61f7bedfa318b88ffdcaa943dbdb446f6a1010ae5cb6b9e5b850d495048e1f",
		"tene":           "492f133a748132f5337a1bd990ddf759cfc33b52cc25f1225388ce106515e1f1",
		"mlp":            "5266f615e8a1fe6439e031a214067335a430817778681e384a8f1f4cb6588bf5",
		"sage":           "7c5b988784b087641998c32f6a6bad80b6f7ec14871e34c4d68f1a7cba2b8e43",
		"cheb":           "343fe0989715165528ac64b77fc28ccb2a4e146431814d532a64166bc1797f9e",
		"netmf":          "dbc46a53593a7aef9bc326e1bc1c021275e0ac4dce68418b26d337d3b9fbf41a",
		"hope":           "f2c9b6c4989cd542f03a76f002ebd1e53b9289d2ef8571736735754a7f12a93e",
		"grarep":         "b9413c49645cdc4fb6987c68c17ed36e26e1888d209bcbf72438e851b6cb7cd7",
		"walklets":       "6c903b17febe536180835807d9a5d2e27c0035eeb1d725ed14d81385424fc39f",
		"line":           "7187c6897636e677f4215b0330c806025ea18f5fd6bd0d360476ec4e42e1491e",
		"m2v":            "f9f879ebe01e2e05bdd7b4aeb02384b0ccb3b085bc00b418e45f8bcc9bb4f651",
		"mell":           "69ce1d0db727f197d06779c51d650304dacabb4082dea31b23ce0f71dc2d8b7f",
		"mne":            "eb35d79efa308a04df1e8b9725b162cbcb83c6f2cb418025ca1aed23a32b5d2c",
	},
	"asm/amd64": {
		"asne":           "3a0cc7941f3e25e65376805e2713f93c279be8ba296eff357611acf31354e45a",
		"musae":          "a47824c6c4a740d80ca03eb96f6e4ead724f4be32c690d31a0a816180b4141dc",
		"aane":           "d3db2f77396c2e773a5fc5e41d9f632f2ff7417898dd0ddd208c715b78c5a142",
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
		"deepwalk":       "818a6b81804d608a5f3d75d26e7f0caeb8a4dbe33a50c9fe081782eeceba2100",
		"feather":        "b743004b0e4d3adde8a659011df0fdaccef9af5fd75d745d2b83d9bf19ce3fce",
		"mgcn":           "b726a56ba491ce07a48f37a6d4db04acb923c573dfadacc7b58ba44283116d48",
		"dmgi":           "1d1e33cd52b8c0d874b7edc4bc4a8e912b5dce4494a4f74cb8138a19e7558dc2",
		"tadw":           "ba12bc927b62d009030a32a6eec799a476702f2985bcca023c39cae76cc36785",
		"bane":           "4b61f7bedfa318b88ffdcaa943dbdb446f6a1010ae5cb6b9e5b850d495048e1f",
		"tene":           "559e3570d6e7cf72f3d819d498de5b775d827d6f2041121e27850c887b5fcbad",
		"mlp":            "ce05cc7f98633fa6decc5f821cd4178a73a6374f2674c922159ab167ce7edf1f",
		"netmf":          "cd35638d69424b173deb317ed0083600589a867fc25c96fb90f4d4c30d80ed85",
		"hope":           "8a648372c93eee2266c85a4a97fadb3d89640d6c69adb980b4160d635ab06baf",
		"grarep":         "5f5070e3909ce6174147f1bfd9f66d84119e8d0f85549a568b0e1848bcad841d",
		"walklets":       "6c903b17febe536180835807d9a5d2e27c0035eeb1d725ed14d81385424fc39f",
		"line":           "7187c6897636e677f4215b0330c806025ea18f5fd6bd0d360476ec4e42e1491e",
		"m2v":            "f9f879ebe01e2e05bdd7b4aeb02384b0ccb3b085bc00b418e45f8bcc9bb4f651",
		"mell":           "69ce1d0db727f197d06779c51d650304dacabb4082dea31b23ce0f71dc2d8b7f",
		"mne":            "eb35d79efa308a04df1e8b9725b162cbcb83c6f2cb418025ca1aed23a32b5d2c",
	},
	// GOAMD64=v3 fuses products outside the engine's kernels (the
	// generator's draws, DeepWalk's float32 updates): other bits.
	"pure/amd64.v3": {
		"asne":           "23173518a73c6911de70b55ad740ea52726b9405ffc5a95fc5c26ba6fb362492",
		"musae":          "5da6615d80cc1ffd5d2b9863a26388377727a1e30e8285ad92c65e6ec6b6d25b",
		"aane":           "cadd12da9dca71aecc9d2368a180e87853320612e6ebe444bbc425dbb2a48568",
		"mean-loop":      "bfe71d32d24be023ad397a7f88852aec2e0c7ea0b0e1e663c28f129f77aa7e8d",
		"appnp":          "532e743747fab84597e68c1518106f83eeb52ccd3157d2b1981547f866695b00",
		"cheb":           "14abcb709f7d31a731ccb5c82f32b0c25aa34468ce7631aa95872f07c39de625",
		"clustergcn":     "a4dc22db36be6d3c205faa95a4db4214462bcd8a6fa0fbec7aff5e91ea9ac80a",
		"deepwalk":       "e30ff2142efffe562871e8b8d1040203f3d616f47e496f04fcb889cbee2e8141",
		"feather":        "3e19c56206376b8ede210975dbb91a79cecb8e5615ab9bda8d1425131dc7166d",
		"mgcn":           "07bd6521a204d382dec52b686b36e98c826491714fc74c7bc87f9154d518f1a2",
		"dmgi":           "ca99b2a406d7917c57cde7766867beff2076855193b58541afc36341e61d413e",
		"tadw":           "0b7f987fd0553d9905b18d260de8f2e9e94d4d1365732a47526f71697bd40d74",
		"bane":           "4b61f7bedfa318b88ffdcaa943dbdb446f6a1010ae5cb6b9e5b850d495048e1f",
		"tene":           "8af7b05ed7778c3a43e3eb96481c2e91defed79ed89f6e4565ba09755b8fcd16",
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
		"netmf":          "946c971fa8f2a15d080d7ce84eab72c7f1ea712b97c3ac6236c4fb4162e9c9dc",
		"hope":           "d6d5a75f52c0a2c74d8631359a8a9617ee230d043909c3e18b65ac482e348749",
		"grarep":         "310dd5853510d5d0b7e74fa1171b060c741806b250785d052dc5df0e01119cc7",
		"walklets":       "0494b0c2b654f0bca29a52fa5d89088a2f8e9ad1301af0555e75c950729321b4",
		"line":           "e2e5134183eb6c5d76c36d2a42ccf24026c8cf1d7f24bfe2a4b6bdcf36f58ac2",
		"m2v":            "cf846099c1b5559e6f2ebfd3896a23e5c5480d900595bb0155d5f68d2e800fea",
		"mell":           "b6753f2513890dae8ab447841913d99cdfbc19e69efae52597d8533448a89fb1",
		"mne":            "e79fed299bdc11710b75419a289a23ddff624b0cf22de8a7e9e58fd3e4698486",
	},
	"asm/amd64.v3": {
		"asne":           "23173518a73c6911de70b55ad740ea52726b9405ffc5a95fc5c26ba6fb362492",
		"musae":          "5da6615d80cc1ffd5d2b9863a26388377727a1e30e8285ad92c65e6ec6b6d25b",
		"aane":           "10a8f2645ee20f661595aa813d3d24c1eed80e687d4545ccf7c445c1c8d0ee40",
		"mean-loop":      "885b3b5428d8506bee56f1707030e9dd34408906743aeffd134695f5fd0a6c29",
		"appnp":          "459153de96109bd7db6f112dfc8667febdd2b6126bda4d9168a8244179e48ef6",
		"cheb":           "1ac01cf04fcca4ef91fca0b52a7c2a6290b6dcffd10f0e48e9410674b6ce3304",
		"clustergcn":     "dad554e309e77b8e7eeeaa4ac501050d679bae2e9d091cb843960a55499c3b4d",
		"deepwalk":       "e30ff2142efffe562871e8b8d1040203f3d616f47e496f04fcb889cbee2e8141",
		"feather":        "57f3bba0ffc140514fd8a93ee9aab26ecb1dd9ce4469cf7261920c4114083109",
		"mgcn":           "797dedd5d25a751078ba4bd1a0f962ca4bde6bf53db7d0d3edd34cdb33ddffae",
		"dmgi":           "3a28e1a1bb1d9b2ca237f1cdc63b8bb87ccf45cb5f36c3c55088eed013b1f408",
		"tadw":           "d0b38a3ff6f3ba1c8ab69af399c5dea7fe6fe3106cc2e7938642968f1f7317b3",
		"bane":           "4b61f7bedfa318b88ffdcaa943dbdb446f6a1010ae5cb6b9e5b850d495048e1f",
		"tene":           "1836cb5298f27efa99df6d3d9399ae0466bfbd2cd0af0e0f2f497ac74b55fdfe",
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
		"netmf":          "ba3bbaea7a3759a82d5f3cc2a29183067d65c37f2e235dce312b12c081969beb",
		"hope":           "307f2c522ba317dcacbacc42de3ce50a9a56dd9191b0908f393de630700c3647",
		"grarep":         "2007c0d298cd116a62a900013db79f6480ad4bb4e7f2b7dc9524138c9e99b217",
		"walklets":       "0494b0c2b654f0bca29a52fa5d89088a2f8e9ad1301af0555e75c950729321b4",
		"line":           "e2e5134183eb6c5d76c36d2a42ccf24026c8cf1d7f24bfe2a4b6bdcf36f58ac2",
		"m2v":            "cf846099c1b5559e6f2ebfd3896a23e5c5480d900595bb0155d5f68d2e800fea",
		"mell":           "b6753f2513890dae8ab447841913d99cdfbc19e69efae52597d8533448a89fb1",
		"mne":            "e79fed299bdc11710b75419a289a23ddff624b0cf22de8a7e9e58fd3e4698486",
	},
	// arm64 fuses too; gonum's assembly there gives its pure Go's bits.
	"pure/arm64": arm64Pins,
	"asm/arm64":  arm64Pins,
}

// arm64Pins were taken from the tests' arm64 builds run in QEMU's user
// mode (qemu-aarch64-static), with -tags noasm and without.
var arm64Pins = map[string]string{
	"asne":           "e7e6746cb36b50249699be2fcc7e7ff402be94588c9fde12f9b58ae56f0b9351",
	"musae":          "c3638ae41d56b20ca4fc34b3f734eeab4d520ff9444ade78178e437f0bd6b39f",
	"aane":           "d6b1d36fe55365df84a41b5dfddeb20555bbc77f011bd90f60ac1284f50a5a97",
	"mean-loop":      "5e2901074a6c3aaf3d71bb7b855805ac67a49027c72ab1a4468719aad34df6ec",
	"appnp":          "8415122b1dbcdb95512a0c427b38722f2e3378df2bb5ef0aa9191b7de4923631",
	"cheb":           "991787a98c21be78627e164489c0ce6d6d96ed17063137aebbe1c39d470fa437",
	"clustergcn":     "0b137ed0f9d82e43956184fba0cd75fd748f3d7ce84e6a8f55d24043ff54fdbc",
	"deepwalk":       "2c193c11c4b5ade1558f0309340740c3a0109ced704d95656bcdc561c8be03f7",
	"feather":        "87e3eaddf120e0ec9bcc3c4d2b7c56f38e27af8987da0e575c9df381cce0d9b0",
	"mgcn":           "d81258d3434dcda0d61f04bc3bdf5513fb9827cd39d32caf659a916c971bf29a",
	"dmgi":           "a54ae99ed825e9e27be91e651f1a614c792966e27ab22b9e02dd0feb8c3d0fb5",
	"tadw":           "71415521baf2ecf39639a9dfcac51e73b23e6eac7eb210b895c4ab97137f73d9",
	"bane":           "98340cb8e537da806d416c0d417e51a1d1aa83a57e60161450efdcac198d32bf",
	"tene":           "b8eda6fce1014e3200784ed36f39942718bc18ecd63106ef50e81206d2b858b4",
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
	"netmf":          "6f77cda0763f9e763e2fd5ae6ddfea5f1da94d15e6e5d257d13040bdd6c708b8",
	"hope":           "e232a5811683ffebaaa0db98f7556958988a26911cbc410b090f98c6fcf31ad3",
	"grarep":         "b071f8350db38d861f26f74418eeb063f2e51d09587c728e166d97e8eab3835c",
	"walklets":       "671409daafbfa3d9a2acb6c78758f845a0ddba4ac208aa074011c76b2c033b4a",
	"line":           "4886f74ef6024cfe29b8dac30d160fe5edd637323ffb4ab395efc77381d47c82",
	"m2v":            "a82b70a75e6df4ec288f10820dd5930d5c57933aa0fcc72b0d54110760616fbf",
	"mell":           "4b9a9f424b14b2a02917087af4a3179b2a8e7243b4c322380610713a91d03382",
	"mne":            "dfc208d998bed4ff6e355b14b68f73b60b8e7013ec022cf053f3711cbdf21dba",
}
