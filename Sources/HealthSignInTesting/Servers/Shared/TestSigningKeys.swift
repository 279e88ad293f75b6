import Foundation
import HealthSignInCore

// Keys generated for the test kit alone and published with it: they sign what the in-process servers issue (id
// tokens, Junction's sign-in tokens), so nothing outside a test may ever trust them.
enum TestSigningKeys {
    /// The SMART test server's RS256 key.
    static let ehrRSA: JSONWebKey = key([
        #"{"n":"snRql-VhlAaf7K-N1mZMib98X3dOl0R9rwZ9VS61NBBJHak2-X3Cs0oe-nhoGvHgmdszbyIT19DPD-noseMLakGnbDvgvl"#,
        #"vDSNnxKw97UzFS33n67s7GcaBihQSl01OKxtjKOYaLHCu66DEsfDRdc7CCIHLZOypYggayHLxks2N-UWNI-r_f2BTyCnQLCYTg57"#,
        #"UdTZ0I1nbd24mf6cET43CPLYzKMN9iXmt-vbVdMnEbYhJubtFw4EoufV5FUkWW1OZtPSRBRVso-8qvBAL9sCScFCGUfuRpH8wCaQ"#,
        #"DPmMB954-b3nXZWjHRO068C56bud7H1bJBMyaJ_3n2JauyyQ","e":"AQAB","d":"Guy1qHVTY6IcPvm9zLtikOXzPfQiR3BuBh"#,
        #"pUjqWdcV2DqpX9VWdEGQj145SHIImd-Zi5Cet6UvWOSDhig3ReJIoDWLEwF4iAzl0TpguP791hQ5aD5cQM7NfmBWvOGTRhm97ZpB"#,
        #"RIqNdwO9gvfg3oi6v19i9d1y9sazHXbb5-8xGu6JCwnRr6GOlyjIYWleZ1YcqtSuK58CSlLU3uWwGEpd5pdBNALzNG3kD1emevJ0"#,
        #"2ZZhtdBMcTm7U8hCIp_F0WHaAcHNMmSDVLZUtR1lWXvrLp9uig-0A5-xedmOy3vPu1tKxi97P4Bv6ikFWXJGYHcyB_ZxpSI5A_F4"#,
        #"TklN8KgQ","p":"8Mvr3We50ilXAYm_4qZqHMgg5nOwrCiaaVhrZ7Ti8-hmJ9OPzSkA7eNnWbHhPGHYa7N7H6WWnn8mycx335Igj"#,
        #"Cvs4GzEd4NGwaaYskX95z1b9uvAYAnlV2O_SmMRKere6CDCEcOcjAkvdzcUCdB8OKgHwnpaze6cPspcNNpyKzM","q":"vbjXs0t"#,
        #"5cJXLuhUxLXY8cQ_WGh_t5OO_vCAIyp2sbNaCIvAHO-6CwD8pvm9Rzzxh_QyAB4iAnHTK8ohWtH6DAoMeKk3oaB4nx5OSUghj_43"#,
        #"Y_Yz5BspMZYg6eXWDg3XenaMfxnpby2Ap3wOamzBv9Q8mEz6B4K6GFSfB5RRzihM","dp":"dXIw16uI4a2SJ0jlk4mxhdpC2cQh"#,
        #"rsabEbizokCC1Y5LjS9OGzXdoyngNcph3k6m_VjsO7JLNYE1DQYyjZQ7VcLy5T-Hz_byou872O_0eD3gRh4UlYMeHjKjkYeiTnyl"#,
        #"PjkEDyAGkfLE-POfTW4nuIaUSlHdSkYQZTvUH19Qgis","dq":"MyfPCWo1YXUSjKdALljuLTIu8bZgR9JdFZWxqShgoKwqRM9hs"#,
        #"_g4yyt8zvtnHLDUXw3qy50zyHv5aPH4JwzhuGCwVonRO5m98iNJVdMrW3Hc62kCkKElfk8ALVXRUzYKA4lDfRnq_Gh-gcKQAn5KA"#,
        #"dLG2nOFQ5brUnL45hLgoH8","qi":"6BM3m6EzLFDpQNcUu7pnDoevy_dIhTP3wriME3MWNW8XiHHW-49BlCXRMuNaektBE11L9Q"#,
        #"j138zqn8_IffVhJJ4ThcxQ_NtIrfyYL6R_kj3atEVCJBNF8Xy5wiLiyGaoBugqrdkfrPEEPKBobX0e6bPwhw4HBf0QJr1mjiihDe"#,
        #"k","kid":"ehr-test-rs256-1","alg":"RS256","use":"sig","kty":"RSA"}"#,
    ])

    /// The RS256 key after `rotateSigningKeys()`.
    static let ehrRSARotated: JSONWebKey = key([
        #"{"n":"rxTUNJkFErHYoJLv5qWCvv74nb1sI1TvOLsBsKMhVculH6qDygOUwCTNEZHuGFoSVL_l0mRp0FTRIFugoxhrWj2WYlI68l"#,
        #"8plY0bXR5FZoXd2xtdeWApp2NDbuEiH_tGXnptUEq3DkXM6dJT4Pxk7KqBMAlC7UDyC1eAguLDw4WH0SosQHAxhXYVLbe3NCHMDG"#,
        #"_62HL9CHSjYXngWZvVA8DaAxXrm-QUGZiD397iyWpPdet2aSeUvFwXNZ9YsKl68bLZ_qsuvmQen-AnDYpk2_kMnhLtMFX2l_FD2t"#,
        #"aeyrmL7EPsR-4dgC6DZKZYkdL5jEroiwFRpI6aJGCTZUSP5Q","e":"AQAB","d":"UHBDZr7_A63OF0grDE7ymQnP87j5m-oD1o"#,
        #"6koiDwydg8TyYqUn_-saC2zuG7AFkxntpjnpwfuWWehz1Rul0XxWgSVa3uAzkRg_JGpiuoOwg5-9bAxWkW-h6y9phc81Cg7ftVid"#,
        #"Qp8lbDZJILk4yiWdGkdQtsQlDaY7eaBYhl5MgLjn9ExyaP68WOLl-vr_vrusMZu4zk3qirCZiRk9ChiuG4FxCVfo34x65-IPInH1"#,
        #"eqxILYOwbmDv1dO_SJlQa0gyxckrfVy8eCHmoWDRAWkYUULVANmSZufhoxt483_carJJ4vubGggVk8_0zxO4zgDFiAcwb0v4mmwY"#,
        #"0idRjxaQ","p":"5S0ANKw_UB02onYGIquGrWSUp1cDaeUMompA-304mJ0lV6xcH2oQPIECmDrX7q4CMGdm5osQxDGd6wbHLCAf6"#,
        #"sOsHlacIQLJ70ZllvJUlUQ78ujTTdYm7hBpvwWejZLspa1xLkRQOKpnfOZHzAMfgg6Oo6yCCH373z4TqsSikY8","q":"w5Ly1Al"#,
        #"JzLolJJD52RkLP6e_ZqFDOVNHAD_RKF1hcF7B-00CtRfVGyyUlCmFvLYWmgfJk4Hu4RaOqR6XGjzW9CqMzBcpWt4ggL_2SEmLuEh"#,
        #"8C2MU6rjhaWGnqJhV6eVBfXzlCTVPE8I5gzLe5KK21kej2BRa3UnAb2g_k8Yh5Us","dp":"T_-Wa8yYyUF5WdqzJ5USjSJoFcX1"#,
        #"BhkTgPpwNpmukO-CIomjGsAubMBoBHW9_K43S2g87ksrDiF3y5vxGMEaAxxMz8ZR99_-V40OV1O-HODVwGRvpmMT8dQ-5ZRzlV3t"#,
        #"R6Q0tv7XtgAd4eaMt3V7oS2tswq71XUM4A_OU7USPpc","dq":"LMrhNtMRxgP0MdXKg4CK5P9khPr2TJDYOCRloRsSEAyD3SycL"#,
        #"CHTOzAQr4Z7DOefcZPLBS_DKGZkMjPBY87_ZFjCepPrctZhF1vf6lp9160yS-Fbjw7dAafOIH0TYEiToUwToPJGtD3NslDaX_8sZ"#,
        #"RNvYTP4Q6p6momD1jKQ3NU","qi":"Sn5HilEH1QBYRw5y9cxY0f99gaxg7uyJ0Bzw48jptuHEGHkR9lq6vT14Sek2lpP6oSQ0Cc"#,
        #"9c5sxNDghr1jtgG2j3zOJuyYdjaGZ7yBuW457JkIHw2KL5yF5aDTczBfwnDjQU2rCRGM2PUQ0VX67loeZkx-BG2MtWrkWy_gbRnt"#,
        #"c","kid":"ehr-test-rs256-2","alg":"RS256","use":"sig","kty":"RSA"}"#,
    ])

    /// The SMART test server's ES256 key.
    static let ehrEC: JSONWebKey = key([
        #"{"crv":"P-256","x":"Ba2VYTOHJa7w3q_Mp8-Ygg_7ldTsVm1umVUTMCHzIIU","y":"yBF6TVzP9S9YhRbWRxYjebCsoupH4o"#,
        #"fJ4-YyePppW9E","d":"oUCTURDe_WI-fKLSczhxcv9LDZVFxqnzmnMAawGjVQE","kid":"ehr-test-es256-1","alg":"ES2"#,
        #"56","use":"sig","kty":"EC"}"#,
    ])

    /// The ES256 key after `rotateSigningKeys()`.
    static let ehrECRotated: JSONWebKey = key([
        #"{"crv":"P-256","x":"MNWHx1YkWwkmoPVNY0pUxsNu3eQkqSn2Sp0Kq-V9Ei8","y":"ck9AY9QAXmtYnXhpcHjxUrSuqV1RP7"#,
        #"LGwuqeYJBc3x4","d":"Wk14jlyhPyJP4wiW9V-a5Pe0IWbLhwIYXJ97d35jjdw","kid":"ehr-test-es256-2","alg":"ES2"#,
        #"56","use":"sig","kty":"EC"}"#,
    ])

    /// The key the Vital test server signs sign-in tokens' user tokens with.
    static let junction: JSONWebKey = key([
        #"{"n":"vj573JPqPbUezoyHok7tN-Y8xlKtAnfhNUGr-4Wd1F7EF8Y-BcXYsSircAuAbHND9wgHoYVvEUtwyBJunyK3s8iBTIYaom"#,
        #"QNy-4HUVhs94AcAHkIhKQdJCRul-M8c_3IobHoY_g4TvkFbFK0N8p5_RO2aqFcUOiU-PkYsu5r3OblqwX3iabZrrj-cpARRjMXgf"#,
        #"EINrAneMG1e9ZIwgpVE0t7B7R5j9lSp5zJoZ6yxAg2qAYY0EIvKpWYO5z7H574gCRi4paW-nD4cg7tDmdj9ARUiKz01qZ8ImUXNj"#,
        #"CL8VCmeJStXKCoPepo4dVtbLi7lSF7GxFtAfyj_ev8z_M-dQ","e":"AQAB","d":"8wDdNeO6URgJQcw_dBNc7woolysD0yNNh7"#,
        #"la9Oy3rY1e7P9MOhN9ts08LuKCKAUTy3d2R9spA-5ZITZqFttBy2NRxW2Gl-c1uEdTEZThm0MIgZIYT1VR49ila13W2lJQ9DlLnm"#,
        #"Zxhm6Pfs4lZR48tAd5-roiMTblEyEba3MgVAhnAB8p9rTz7SX-nkfY9bTZkRFGm_QAVtzfrksHCl2_bQAilc0TBdDaNiE4V2MaqA"#,
        #"xlrkQo2xTYXgR-ZJSpqUkL58JJqE9r9W8bFCK5tRs1XnkEMJRu--k04gApOj1klsTCq5M5U21jVJMXvYk3uNEYWO5vmk-2wALmkk"#,
        #"5NsJS1","p":"5p_LKnaxWmK-Lxr_ydG7kHUZo5OGenZfLvrJjgHISlpa9GO7xxdjYAAqJd0zxd4ot5LEqEc9tl1Xe7U29xrF9zG"#,
        #"w_X-enBHbPOigyUjs7tH0JDXvNnWXqBVp-9P40pQvSGsdISnz7Uma3T9A_0PwO-oefqlkSlzyRHNk-14LkC8","q":"0y1EER4FO"#,
        #"FekwW7Vlx6zLM5Gr0N5DRLufj_wxjuk2ZBtWMZ3yhhAz2dEHL52UdrLGYV4XaaT-NeHBxDotlMtAF_TidsQL-71-cP08pK5J0Ggu"#,
        #"AZV6o_CvYI_9zFdmWZl_KHzUyAopgGmHQDQvpfsp3dSOd96ACZuElz1fSR9rps","dp":"qpKVWZrgIdHWiFCXz1VoPLffdrSuSf"#,
        #"UzATRLztRSp2ucyhTZ1a7euSpmAgtRN4_Q3bWX7j6CzlbLVZv6Q1lyAhqmpVe2oAg09x-3jCh71UdEI2QgwU7IFHGCKdfluRoQvq"#,
        #"c6rESzPVWrTOhz0lkVXbsTQutWWgnUxfvzPFeahdE","dq":"M_ZJb2TRqAF42tfo2pyFPhsrrWiO2raz1IDrP_vhHl-5aES9qQ6"#,
        #"6s84XJnN_LbkGjKsY6QJaGrr90LFKccKZqiPqK1up6gGEqQacuSt9P7mYUG_OqD7jjjoEf1C4VUyq_7Th6KxbFC4Hr89JjfxYEQT"#,
        #"9SJxCqtLJ9t7E0RwviM0","qi":"1RvHgmSnauFZxZtT4htacI1XdTkZw8zKax47m9bHWrR1lexBGdGzeci4UBq2HSjcRCGmm7bs"#,
        #"ljwizOglu-1Dm_eqTfo4UXhiQh1s_vZo-Vp0TwqvJfcfUxq3Zb9FiuvT5aE-QlKhOpW_BqmXZKa8wah21OZLyXDsGNJBygEEDfk""#,
        #","kid":"junction-test-1","alg":"RS256","kty":"RSA"}"#,
    ])

    /// The key whose JSON is the concatenation of `parts` (an array of lines, which the compiler checks much faster
    /// than a chain of `+`).
    private static func key(_ parts: [String]) -> JSONWebKey {
        // The literals above are valid keys; a failure here is a broken build of the kit, not outside data.
        guard let key = try? JSONWebKey(json: Data(parts.joined().utf8)) else {
            preconditionFailure("a test kit key is invalid")
        }
        return key
    }
}
